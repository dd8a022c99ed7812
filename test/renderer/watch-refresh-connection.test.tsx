// @vitest-environment jsdom
import { act, cleanup, render, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { getApi } from '../../src/renderer/src/bridge/api';
import { useAppBoot } from '../../src/renderer/src/app/use-app-boot';
import { useWatchStore } from '../../src/renderer/src/features/watch/watch-store';
import { useSessionStore } from '../../src/renderer/src/session';
import { useServiceBackend } from './service-backend';

/**
 * A Watched query's cost check and refresh over the real handlers and the service simulator: when the
 * service fails them, the status bar's connection says so as it does for a failed Search, through the
 * same report of service outcomes the app installs at start.
 */
const backend = useServiceBackend({ serviceOutcomes: true });

/** The app's start, as the shell runs it: profiles read, and every service call's outcome followed. */
function Booted() {
  useAppBoot();
  return null;
}

afterEach(cleanup);

const connection = () => useSessionStore.getState().connection;
const request = { start_date: '2024-01-01', end_date: '2024-03-31', importer_countries: ['DE'] };
const unavailable = () => backend.setFaults({ errorRate: 1, errorStatuses: [503] });

describe('the status bar after a Watched query fails at the service', () => {
  it('says what a failed Search says, from the cost check and from the refresh, and clears when one succeeds', async () => {
    useSessionStore.getState().reset();
    useWatchStore.getState().reset();
    render(<Booted />);
    await waitFor(() => expect(useSessionStore.getState().activeId).toBe(backend.profileId));

    // A Search the service fails: the status bar's connection as the analyst already knows it.
    unavailable();
    const search = await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(search.ok).toBe(false);
    const afterSearch = connection();
    expect(afterSearch).toMatchObject({ status: 'failed', kind: 'ServiceError' });
    backend.setFaults(undefined);
    const again = await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(again.ok).toBe(true);
    expect(connection().status).toBe('connected');

    // The cost check of a new watched query, failed the same way: the same state.
    unavailable();
    await act(() => useWatchStore.getState().checkCost({ request, name: 'DE Q1', presetId: null }));
    const failed = useWatchStore.getState().dialogError;
    expect(failed?.kind).toBe('ServiceError');
    expect(connection()).toEqual({ status: 'failed', kind: 'ServiceError', message: failed!.message });
    expect(connection()).toEqual(afterSearch);

    // Checked again once the service is back: connected.
    backend.setFaults(undefined);
    await act(() => useWatchStore.getState().checkCost({ request, name: 'DE Q1', presetId: null }));
    expect(useWatchStore.getState().preview).not.toBeNull();
    expect(connection().status).toBe('connected');

    // The refresh itself, failed: said too; reading the watched queries (the library) changes nothing.
    // (A 503 it waits out, as a fetch job does; a 500 is a failure.)
    backend.setFaults({ errorRate: 1, errorStatuses: [500] });
    await act(() => useWatchStore.getState().confirmRefresh());
    expect(useWatchStore.getState().dialogError?.kind).toBe('ServiceError');
    expect(connection()).toMatchObject({ status: 'failed', kind: 'ServiceError' });
    await act(() => useWatchStore.getState().load());
    expect(connection()).toMatchObject({ status: 'failed', kind: 'ServiceError' });
    backend.setFaults(undefined);
  }, 60_000);

  it('a watched query of another profile failing says nothing of the active profile’s connection', async () => {
    useSessionStore.getState().reset();
    useWatchStore.getState().reset();
    render(<Booted />);
    await waitFor(() => expect(useSessionStore.getState().activeId).toBe(backend.profileId));
    // Watched with the first profile.
    const q = { ...request, importer_countries: ['FR'] };
    await act(() => useWatchStore.getState().checkCost({ request: q, name: 'FR Q1', presetId: null }));
    await act(() => useWatchStore.getState().confirmRefresh());
    const watch = useWatchStore.getState().detail;
    expect(watch?.profileId).toBe(backend.profileId);

    // Another profile becomes the active one, and its connection works.
    const other = await backend.addProfile('Desk two');
    await backend.invoke('profiles.setActive', { id: other });
    await act(() => useSessionStore.getState().refreshProfiles());
    expect(useSessionStore.getState().activeId).toBe(other);
    await act(() => getApi().shipments.search({ request: { ...request, size: 10 } }));
    expect(connection().status).toBe('connected');

    // The first profile's watched query, checked and failed at the service: the status bar (the active
    // profile's) stays as it was.
    unavailable();
    await act(() => useWatchStore.getState().checkCost());
    expect(useWatchStore.getState().dialogError?.kind).toBe('ServiceError');
    expect(connection().status).toBe('connected');
    backend.setFaults(undefined);
  }, 60_000);
});
