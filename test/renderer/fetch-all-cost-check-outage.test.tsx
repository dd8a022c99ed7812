// @vitest-environment jsdom
import { act, cleanup, render, screen } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchAllDialog, useJobsStore } from '../../src/renderer/src/features/jobs';
import {
  costCheckRefusedForALimit,
  costCheckRefusedForItsFilter,
  costCheckWhileServiceRestarts,
  type CostCheckDialog,
} from './cost-check-outage';
import { useServiceBackend } from './service-backend';

/**
 * Fetch all's cost check over the real handlers and the service simulator, stopped and started again
 * at the same address: as with the Watched cost check, the dialog says the service is not answering
 * and offers Try again in place of Start fetching, which Enter runs and which shows the cost once the
 * service is back. Refused for a limit with a wait, it offers Try again once the wait is over.
 */
const backend = useServiceBackend({});
afterEach(cleanup);

const request = { start_date: '2021-01-01', end_date: '2025-12-31', importer_countries: ['DE'] };
const dialog = () => useJobsStore.getState().dialog;
const fetchAll: CostCheckDialog = {
  ids: 'fetch-all',
  costId: 'fetch-all-estimate',
  confirmLabel: 'Start fetching',
  checkOver: () => dialog()?.state !== 'estimating',
  error: () => dialog()?.error,
};

describe('Fetch all’s cost check while the service restarts', () => {
  it('says the service is not answering and offers Try again, which shows the cost once it is back', async () => {
    useJobsStore.getState().reset();
    render(<FetchAllDialog />);
    // Answered once at this address: then a refused connection is a service down or restarting.
    await act(() => useJobsStore.getState().askFetchAll('shipments', request));
    expect(dialog()?.state).toBe('ready');
    act(() => useJobsStore.getState().dismissDialog());

    const { firstError } = await costCheckWhileServiceRestarts(backend, fetchAll, () =>
      useJobsStore.getState().askFetchAll('shipments', request),
    );
    expect(firstError).toMatch(/^No connection to the service: /);
    expect(screen.getByText('Fetch all records')).toBeTruthy();
  }, 60_000);

  it('a check refused for its filter is not offered again: Try again is for a service that did not answer', async () => {
    useJobsStore.getState().reset();
    render(<FetchAllDialog />);
    // Dates the wrong way round: the service is never asked, and asking again would not help.
    await costCheckRefusedForItsFilter(fetchAll, () =>
      useJobsStore
        .getState()
        .askFetchAll('shipments', { ...request, start_date: '2025-12-31', end_date: '2021-01-01' }),
    );
  }, 30_000);

  it('a check refused for a limit offers Try again once the wait the service gave is over, and asks nothing before', async () => {
    useJobsStore.getState().reset();
    render(<FetchAllDialog />);
    await costCheckRefusedForALimit(
      backend,
      fetchAll,
      () => useJobsStore.getState().askFetchAll('shipments', { ...request, importer_countries: ['FR'] }),
      () => useJobsStore.getState().estimate(),
    );
  }, 60_000);
});
