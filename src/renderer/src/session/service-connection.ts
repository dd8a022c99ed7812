import { getApi } from '../bridge/api';
import { useSessionStore } from './session-store';

/**
 * Follows main's `service.connection`: the status bar says the service does not answer as soon as
 * any request of the active profile (a job's page included) finds it gone, or that it is not answering
 * and Portolan tries again as soon as its gateway answers that it is unavailable (before the client's
 * retries and a job's or refresh's pauses; only that it is not answering once nothing asks any more),
 * and clears when a request or main's probe finds it back.
 * Called by the app (connectStores), never on import; returns the disconnect.
 */
export function connectServiceConnection(): () => void {
  return getApi().on('service.connection', ({ profileId, reachable, unavailable, idle, message }) => {
    useSessionStore
      .getState()
      .reportConnection(
        profileId,
        reachable
          ? { status: 'connected', checkedAt: Date.now() }
          : unavailable
            ? { status: 'waiting', message: message ?? '', retrying: !idle }
            : { status: 'failed', kind: 'NetworkError', message: message ?? '' },
      );
  });
}
