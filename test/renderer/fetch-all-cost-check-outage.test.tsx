// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, describe, expect, it } from 'vitest';
import { FetchAllDialog, useJobsStore } from '../../src/renderer/src/features/jobs';
import { useServiceBackend } from './service-backend';

/**
 * Fetch all's cost check over the real handlers and the service simulator, stopped and started again
 * at the same address: as with the Watched cost check, the dialog says the service is not answering
 * and offers Try again in place of Start fetching, which Enter runs and which shows the cost once the
 * service is back.
 */
const backend = useServiceBackend({});
afterEach(cleanup);

const request = { start_date: '2021-01-01', end_date: '2025-12-31', importer_countries: ['DE'] };
const dialog = () => useJobsStore.getState().dialog;

describe('Fetch all’s cost check while the service restarts', () => {
  it('says the service is not answering and offers Try again, which shows the cost once it is back', async () => {
    useJobsStore.getState().reset();
    render(<FetchAllDialog />);
    // Answered once at this address: then a refused connection is a service down or restarting.
    await act(() => useJobsStore.getState().askFetchAll('shipments', request));
    expect(dialog()?.state).toBe('ready');
    act(() => useJobsStore.getState().dismissDialog());

    await backend.stopService();
    await act(() => useJobsStore.getState().askFetchAll('shipments', request));
    const error = await screen.findByTestId('fetch-all-error');
    expect(error.getAttribute('data-error-kind')).toBe('NetworkError');
    expect(error.textContent).toMatch(/^No connection to the service: /);
    expect(screen.getByText('The cost could not be checked')).toBeTruthy();
    // Try again in place of the Start fetching it cannot do, and focused: Enter runs it.
    const again = screen.getByTestId('fetch-all-again');
    expect(again.textContent).toBe('Try again');
    await waitFor(() => expect(document.activeElement).toBe(again));
    expect(screen.queryByTestId('fetch-all-confirm')).toBeNull();

    // Still down: the same failure, Try again still offered.
    await act(async () => {
      fireEvent.submit(again.closest('form')!);
    });
    await waitFor(() => expect(dialog()?.state).toBe('error'));
    expect(dialog()?.error?.kind).toBe('NetworkError');
    expect(screen.getByTestId('fetch-all-again')).toBeTruthy();

    await backend.startService();
    await act(async () => {
      fireEvent.click(screen.getByTestId('fetch-all-again'));
    });
    await screen.findByTestId('fetch-all-estimate', {}, { timeout: 10_000 });
    expect(dialog()?.error).toBeNull();
    expect(screen.queryByTestId('fetch-all-error')).toBeNull();
    expect(screen.queryByTestId('fetch-all-again')).toBeNull();
    expect(screen.getByText('Fetch all records')).toBeTruthy();
    const confirm = screen.getByTestId('fetch-all-confirm');
    expect(confirm.textContent).toBe('Start fetching');
    expect(confirm.hasAttribute('disabled')).toBe(false);
  }, 60_000);

  it('a check refused for its filter is not offered again: Try again is for a service that did not answer', async () => {
    useJobsStore.getState().reset();
    render(<FetchAllDialog />);
    // Dates the wrong way round: the service is never asked, and asking again would not help.
    await act(() =>
      useJobsStore
        .getState()
        .askFetchAll('shipments', { ...request, start_date: '2025-12-31', end_date: '2021-01-01' }),
    );
    await screen.findByTestId('fetch-all-error');
    expect(dialog()?.error?.kind).toBe('InvalidInput');
    expect(screen.queryByTestId('fetch-all-again')).toBeNull();
    expect(screen.getByTestId('fetch-all-confirm').hasAttribute('disabled')).toBe(true);
  }, 30_000);
});
