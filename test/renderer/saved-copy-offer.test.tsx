// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { ShipmentSearchRequest } from '@shared/spec';
import * as app from '../../src/renderer/src/session/session-store';
import * as jobs from '../../src/renderer/src/features/jobs/jobs-store';
import * as library from '../../src/renderer/src/features/library/library-store';
import * as page from '../../src/renderer/src/features/search/search-page';
import * as search from '../../src/renderer/src/features/search/search-store';
import { SavedCopyOffer } from '../../src/renderer/src/components/saved-copy-offer';
import { dataset, fakeLibrary, type FakeLibrary } from './fake-library';

/**
 * The saved-copy offer on the Search page after the offered dataset is deleted: the library is asked
 * again, and the other complete copy of the same answer is offered (or opened) instead.
 */
let lib: FakeLibrary = fakeLibrary([]);

const request = {
  exporter_countries: ['DE'],
  importer_countries: ['TR'],
  hs_codes: ['7208'],
  size: 100,
} as unknown as ShipmentSearchRequest;

const bridge = fakeBridge({}, { fallback: (channel, input) => lib.invoke(channel, input) });

beforeAll(() => {
  setApi(bridge.api);
  // What the app connects at start: the saved-copy offers follow deleted datasets.
  search.connectSearchStore();
  library.connectLibraryStore();
  jobs.connectJobsStore();
});
beforeEach(() => {
  // Two complete copies of the same answer; the library offers the newest one still there.
  lib = fakeLibrary([
    dataset('newer', { name: 'Steel, today' }),
    dataset('older', { name: 'Steel, yesterday' }),
  ]);
  // Main announces a delete, whichever window made it.
  lib.announce = (change) => bridge.emit('library.changed', change);
  lib.equivalent = () => {
    const d = lib.datasets[0];
    return d ? { dataset: { ...d }, ageSeconds: 60 } : null;
  };
  act(() => {
    search.useSearchStore.setState({
      offer: { dataset: lib.datasets[0]!, ageSeconds: 60, request },
      offerNotice: null,
    });
    library.useLibraryStore.setState({ open: null, openMeta: null });
    app.useSessionStore.setState({ page: 'search' });
  });
});
afterEach(cleanup);

const offered = () => screen.getByTestId('search-saved-offer').getAttribute('data-dataset-id');

describe('saved-copy offer', () => {
  it('offers the other copy once the offered one is deleted in the Library, and opens it', async () => {
    render(<page.SearchPage />);
    expect(offered()).toBe('newer');
    await act(() => library.useLibraryStore.getState().remove('newer'));
    await waitFor(() => expect(offered()).toBe('older'));
    expect(screen.getByTestId('search-saved-offer-text').textContent).toContain('Steel, yesterday');

    fireEvent.click(screen.getByTestId('search-saved-offer-open'));
    await waitFor(() => expect(app.useSessionStore.getState().page).toBe('library'));
    expect(library.useLibraryStore.getState().open?.id).toBe('older');
    expect(screen.queryByTestId('search-saved-offer')).toBeNull();
  });

  it('checks the copy is still there when the offer is used, and opens the other copy if not', async () => {
    render(<page.SearchPage />);
    // Deleted without this window hearing of it (another window, the browser host).
    lib.datasets = lib.datasets.filter((d) => d.id !== 'newer');
    fireEvent.click(screen.getByTestId('search-saved-offer-open'));
    await waitFor(() => expect(app.useSessionStore.getState().page).toBe('library'));
    expect(library.useLibraryStore.getState().open?.id).toBe('older');
  });

  it('says so, and stays on the search, when no copy is left', async () => {
    render(<page.SearchPage />);
    lib.datasets = lib.datasets.filter((d) => d.id === 'newer');
    await act(() => library.useLibraryStore.getState().remove('newer'));
    await waitFor(() => expect(screen.queryByTestId('search-saved-offer')).toBeNull());
    expect(screen.getByTestId('search-saved-offer-gone').textContent).toMatch(
      /was deleted, and no other saved copy answers this search/,
    );
    expect(app.useSessionStore.getState().page).toBe('search');
  });

  it('in the fetch-all dialog, offers the other complete copy once the offered one is deleted', async () => {
    await act(() => jobs.useJobsStore.getState().askFetchAll('shipments', request));
    expect(jobs.useJobsStore.getState().dialog?.saved?.dataset.id).toBe('newer');
    await act(() => library.useLibraryStore.getState().remove('newer'));
    await waitFor(() => expect(jobs.useJobsStore.getState().dialog?.saved?.dataset.id).toBe('older'));
    await act(() => jobs.useJobsStore.getState().openSaved());
    expect(library.useLibraryStore.getState().open?.id).toBe('older');
    expect(jobs.useJobsStore.getState().dialog).toBeNull();
  });

  it('says how much of the answer the copy holds, in words, and is dismissed by a labelled button', () => {
    let dismissed = 0;
    const show = (storedRows: number, reportedTotal: number | null) => {
      cleanup();
      render(
        <SavedCopyOffer
          testId="offer"
          offer={{ dataset: dataset('d', { name: 'Steel', storedRows, reportedTotal }), ageSeconds: 60 }}
          cost={100}
          onOpen={() => undefined}
          onFetchAgain={() => undefined}
          onDismiss={() => dismissed++}
        />,
      );
      return screen.getByTestId('offer-text').textContent;
    };
    expect(show(3000, 3000)).toContain('“Steel” with all 3,000 records is already in the library');
    expect(show(2000, 5000)).toContain('“Steel” with 2,000 of 5,000 records is already');
    expect(show(40, null)).toContain('“Steel” with 40 records is already');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(dismissed).toBe(1);
    expect(screen.getByTestId('offer-refetch').textContent).toBe('Fetch again (up to 100 downloads)');
  });
});
