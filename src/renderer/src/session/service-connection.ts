import { getApi } from '../bridge/api';
import { useSessionStore } from './session-store';

/**
 * Follows main's `service.connection`: the status bar says the service does not answer as soon as
 * any request of the active profile (a job's page included) finds it gone, and clears when main's
 * probe finds it back. Called by the app (connectStores), never on import; returns the disconnect.
 */
export function connectServiceConnection(): () => void {
  return getApi().on('service.connection', ({ profileId, reachable, message }) => {
    useSessionStore
      .getState()
      .reportConnection(
        profileId,
        reachable
          ? { status: 'connected', checkedAt: Date.now() }
          : { status: 'failed', kind: 'NetworkError', message: message ?? '' },
      );
  });
}
