// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RefreshDialog } from '../../src/renderer/src/features/watch/refresh-dialog';
import { connectWatchStore, useWatchStore } from '../../src/renderer/src/features/watch/watch-store';
import { useServiceBackend } from './service-backend';

/**
 * The Watched refresh dialog over the real handlers and the service simulator, stopped under the
 * refresh and started again at the same address: the dialog says the refresh waits, with the time so
 * far, goes on by itself when the service is back, and Cancel stops it with nothing stored.
 */
const backend = useServiceBackend({ events: true });
let disconnect: () => void = () => undefined;

beforeAll(() => {
  disconnect = connectWatchStore();
});
afterEach(cleanup);
afterAll(() => disconnect());

const request = { start_date: '2021-01-01', end_date: '2025-12-31', importer_countries: ['DE'] };

/**
 * The cost of watching `name` checked, the service then stopped, and the first snapshot asked for:
 * once the dialog says it waits, the refresh under way (wrapped: an async function would wait for it).
 */
async function refreshWithServiceGone(name: string): Promise<{ refreshing: Promise<void> }> {
  useWatchStore.getState().reset();
  render(<RefreshDialog />);
  await act(() => useWatchStore.getState().checkCost({ request, name, presetId: null }));
  expect(useWatchStore.getState().preview).not.toBeNull();
  await backend.stopService();
  const refreshing = useWatchStore.getState().confirmRefresh();
  const waiting = await screen.findByTestId('watch-refresh-waiting', {}, { timeout: 10_000 });
  expect(waiting.textContent).toMatch(
    /^The service is not answering: waiting for it \(\d+ s so far\)\. The refresh goes on by itself when it answers\. Cancel stops it, and nothing of it is stored\.$/,
  );
  return { refreshing };
}

describe('the Watched refresh dialog while the service restarts', () => {
  it('says it waits, with the time so far, and takes the snapshot by itself once the service is back', async () => {
    const { refreshing } = await refreshWithServiceGone('DE, all dates');
    // The time so far moves on while it waits.
    await waitFor(
      () =>
        expect(screen.getByTestId('watch-refresh-waiting').textContent).toMatch(/\(([2-9]|\d\d) s so far\)/),
      { timeout: 5_000 },
    );
    expect(screen.getByTestId('watch-refresh-cancel').hasAttribute('disabled')).toBe(false);

    await backend.startService();
    await act(() => refreshing);
    const s = useWatchStore.getState();
    expect(s.dialogOpen).toBe(false);
    expect(s.dialogError).toBeNull();
    expect(s.lastOutcome).toMatch(/^Snapshot 1: [\d,]+ new records · [\d,]+ downloads spent$/);
    expect(screen.queryByTestId('watch-refresh-waiting')).toBeNull();
  }, 60_000);

  it('Cancel stops it while it waits: the dialog closes and nothing is stored', async () => {
    const before = await backend.invoke('watch.list', undefined);
    const { refreshing } = await refreshWithServiceGone('DE, cancelled');
    fireEvent.click(screen.getByTestId('watch-refresh-cancel'));
    await act(() => refreshing);
    const s = useWatchStore.getState();
    expect(s.dialogOpen).toBe(false);
    expect(s.refreshing).toBe(false);
    expect(s.lastOutcome).toBe('Refresh cancelled: nothing of it was stored.');
    expect(await backend.invoke('watch.list', undefined)).toEqual(before);
    await backend.startService();
  }, 60_000);
});
