// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { RefreshDialog } from '../../src/renderer/src/features/watch/refresh-dialog';
import { useWatchStore } from '../../src/renderer/src/features/watch/watch-store';
import {
  costCheckRefusedForALimit,
  costCheckRefusedForItsFilter,
  costCheckWhileServiceRestarts,
  type CostCheckDialog,
} from './cost-check-outage';
import { useServiceBackend } from './service-backend';

/**
 * The Watched cost check over the real handlers and the service simulator, stopped and started again at
 * the same address: the check is not waited out (like Search's and Fetch all's, it is the analyst's to
 * run again); the dialog says the service is not answering and offers Try again, which Enter runs, and
 * which shows the cost once the service is back.
 */
const backend = useServiceBackend({ watchSearchCap: 20 });
afterEach(cleanup);

const request = { start_date: '2021-01-01', end_date: '2025-12-31', importer_countries: ['DE'] };
const target = { request, name: 'DE, all dates', presetId: null };
const refresh: CostCheckDialog = {
  ids: 'watch-refresh',
  costId: 'watch-refresh-cost',
  confirmLabel: 'Take first snapshot',
  checkOver: () => !useWatchStore.getState().checking,
  error: () => useWatchStore.getState().dialogError,
};

describe('the Watched cost check while the service restarts', () => {
  it('says the service is not answering and offers Try again, which shows the cost once it is back', async () => {
    useWatchStore.getState().reset();
    render(<RefreshDialog />);
    // Answered once at this address: then a refused connection is a service down or restarting. Another
    // question: the same one would be answered from the answer main kept, asking nothing.
    await act(() =>
      useWatchStore.getState().checkCost({ ...target, request: { ...request, end_date: '2025-06-30' } }),
    );
    expect(useWatchStore.getState().preview).not.toBeNull();
    act(() => useWatchStore.getState().closeDialog());

    const { firstError, confirm } = await costCheckWhileServiceRestarts(backend, refresh, () =>
      useWatchStore.getState().checkCost(target),
    );
    expect(firstError).toMatch(
      /^No connection to the service: The service at 127\.0\.0\.1:\d+ stopped answering \(connection refused\)\. It answered earlier at this address, so it is probably down or restarting\./,
    );
    await waitFor(() => expect(document.activeElement).toBe(confirm));
  }, 60_000);

  it('a check refused for its filter is not offered again: Try again is for a service that did not answer', async () => {
    useWatchStore.getState().reset();
    render(<RefreshDialog />);
    // Dates the wrong way round: the service is never asked, and asking again would not help.
    const backwards = {
      ...target,
      request: { ...request, start_date: '2025-12-31', end_date: '2021-01-01' },
    };
    const error = await costCheckRefusedForItsFilter(refresh, () =>
      useWatchStore.getState().checkCost(backwards),
    );
    // The fields as the Search form labels them, never the service's names.
    expect(error.textContent).toBe('The input is not valid: Date to: must not be before Date from.');
  }, 30_000);
});

describe('the Watched cost check of two date windows, stopped by the service after the first', () => {
  // 30,000 records (seed 5): with searches of at most 20 records (the backend's watchSearchCap) the first
  // snapshot of these dates stops on 2025-12-01, which holds more; with 2 days' overlap a refresh then
  // looks at 2025-11-01 – 2025-12-01 and 2025-12-05 – 2025-12-07, one paid probe each.
  const twoWindows = { start_date: '2025-11-01', end_date: '2025-12-07' };
  // With this seed and rate the gateway lets the first request through and answers the five after it
  // with 503 (the client's second attempt included): the second window is not answered.
  const failAfterOne = { errorRate: 0.8, errorStatuses: [503], seed: 34 };

  it('Try again asks only for the window still missing, and shows the cost of both', async () => {
    useWatchStore.getState().reset();
    await act(() =>
      useWatchStore.getState().checkCost({ request: twoWindows, name: 'November on', presetId: null }),
    );
    await act(() => useWatchStore.getState().confirmRefresh());
    const watchId = useWatchStore.getState().selectedId!;
    expect(useWatchStore.getState().detail?.snapshots.at(-1)?.incomplete).toEqual([
      '2025-11-01 – 2025-12-01',
    ]);
    expect((await backend.invoke('watch.setOverlap', { id: watchId, days: 2 })).ok).toBe(true);
    await act(() => useWatchStore.getState().select(watchId));

    render(<RefreshDialog />);
    backend.setFaults(failAfterOne);
    await act(() => useWatchStore.getState().checkCost());
    backend.setFaults(undefined);
    const error = await screen.findByTestId('watch-refresh-error');
    expect(error.getAttribute('data-error-kind')).toBe('ServiceError');
    expect(error.textContent).toContain(
      '1 of the 2 date windows had been answered: its answer is kept, and checking again asks only for the other one.',
    );
    expect(screen.getByText('The cost could not be checked')).toBeTruthy();
    // No cost from half the windows.
    expect(screen.queryByTestId('watch-refresh-cost')).toBeNull();
    expect(screen.queryByTestId('watch-refresh-windows')).toBeNull();

    const before = await backend.requestsServed();
    await act(async () => {
      fireEvent.click(screen.getByTestId('watch-refresh-again'));
    });
    const cost = await screen.findByTestId('watch-refresh-cost', {}, { timeout: 10_000 });
    expect((await backend.requestsServed()) - before).toBe(1);
    const rows = screen.getByTestId('watch-refresh-windows').querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.querySelector('td')?.textContent)).toEqual([
      '2025-11-01 – 2025-12-01',
      '2025-12-05 – 2025-12-07',
    ]);
    expect(cost.textContent).toContain('Checking it cost 20 downloads');
    expect(screen.getByTestId('watch-refresh-reused').textContent).toBe(
      ' 1 of the 2 date windows was answered by an earlier check, so only the other one was asked.',
    );
    expect(screen.queryByTestId('watch-refresh-error')).toBeNull();
    const confirm = screen.getByTestId('watch-refresh-confirm');
    expect(confirm.textContent).toBe('Refresh');
    await waitFor(() => expect(document.activeElement).toBe(confirm));
  }, 60_000);
});

describe('the Watched cost check refused for a limit with a wait', () => {
  it('offers Try again once the wait is over, and asks nothing before', async () => {
    useWatchStore.getState().reset();
    render(<RefreshDialog />);
    await costCheckRefusedForALimit(
      backend,
      refresh,
      () =>
        useWatchStore
          .getState()
          .checkCost({ ...target, request: { ...request, importer_countries: ['FR'] } }),
      () => useWatchStore.getState().checkAgain(),
    );
  }, 60_000);
});
