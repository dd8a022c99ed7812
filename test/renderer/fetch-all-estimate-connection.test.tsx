// @vitest-environment jsdom
import { act, cleanup, render, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { getApi } from '../../src/renderer/src/bridge/api';
import { useAppBoot } from '../../src/renderer/src/app/use-app-boot';
import { useJobsStore } from '../../src/renderer/src/features/jobs';
import { useSessionStore } from '../../src/renderer/src/session';
import { useServiceBackend } from './service-backend';

/**
 * Fetch all's cost check over the real handlers and the service simulator: when the service fails it
 * (unavailable, sign-in refused, a limit), the status bar's connection says so as it does for a failed
 * Search, through the report of service outcomes the app installs at start.
 */
const backend = useServiceBackend({ serviceOutcomes: true });

function Booted() {
  useAppBoot();
  return null;
}

afterEach(() => {
  cleanup();
  backend.setFaults(undefined);
});

const connection = () => useSessionStore.getState().connection;
const request = { start_date: '2024-01-01', end_date: '2024-03-31', importer_countries: ['DE'] };
const dialog = () => useJobsStore.getState().dialog;

async function booted(): Promise<void> {
  useSessionStore.getState().reset();
  useJobsStore.getState().reset();
  render(<Booted />);
  await waitFor(() => expect(useSessionStore.getState().activeId).not.toBeNull());
}

describe('the status bar after Fetch all’s cost check fails at the service', () => {
  it('says what a failed Search says when the service is unavailable, and clears when a check succeeds', async () => {
    await booted();
    backend.setFaults({ errorRate: 1, errorStatuses: [503] });
    const search = await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(search.ok).toBe(false);
    const afterSearch = connection();
    expect(afterSearch).toMatchObject({ status: 'failed', kind: 'ServiceError' });
    backend.setFaults(undefined);
    await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(connection().status).toBe('connected');

    backend.setFaults({ errorRate: 1, errorStatuses: [503] });
    await act(() => useJobsStore.getState().askFetchAll('shipments', request));
    expect(dialog()).toMatchObject({ state: 'error', error: { kind: 'ServiceError' } });
    expect(connection()).toEqual({
      status: 'failed',
      kind: 'ServiceError',
      message: dialog()!.error!.message,
    });
    expect(connection()).toEqual(afterSearch);

    backend.setFaults(undefined);
    await act(() => useJobsStore.getState().estimate());
    expect(dialog()?.state).toBe('ready');
    expect(connection().status).toBe('connected');
  }, 60_000);

  it('says a limit the service answers with, until its Retry-After', async () => {
    await booted();
    await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(connection().status).toBe('connected');
    backend.setFaults({ burst429: { every: 1, count: 1 } });
    await act(() =>
      useJobsStore.getState().askFetchAll('shipments', { ...request, importer_countries: ['FR'] }),
    );
    backend.setFaults(undefined);
    expect(dialog()).toMatchObject({ state: 'error', error: { kind: 'LimitExceeded' } });
    expect(connection()).toMatchObject({ status: 'failed', kind: 'LimitExceeded' });
    expect((connection() as { until?: number }).until).toBeGreaterThan(Date.now());
  }, 60_000);

  it('says a refused sign-in of the active profile', async () => {
    const listed = await backend.invoke('profiles.list', undefined);
    const { baseUrl } = (listed as { ok: true; value: { profiles: { baseUrl: string }[] } }).value
      .profiles[0]!;
    const created = await backend.invoke('profiles.create', {
      name: 'Old secret',
      baseUrl,
      accountName: 'acme',
      apiKey: 'not-the-key',
      apiSecret: 'not-the-secret',
    });
    expect(created.ok).toBe(true);
    const wrong = (created as { ok: true; value: { id: string } }).value.id;
    await backend.invoke('profiles.setActive', { id: wrong });
    try {
      await booted();
      await waitFor(() => expect(useSessionStore.getState().activeId).toBe(wrong));
      await act(() => useJobsStore.getState().askFetchAll('shipments', request));
      expect(dialog()).toMatchObject({ state: 'error', error: { kind: 'AuthRejected' } });
      expect(connection()).toMatchObject({ status: 'failed', kind: 'AuthRejected' });
    } finally {
      await backend.invoke('profiles.setActive', { id: backend.profileId });
    }
  }, 60_000);
});
