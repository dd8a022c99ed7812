// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { LibraryPage } from '../../src/renderer/src/features/library/library-page';
import { useLibraryStore } from '../../src/renderer/src/features/library/library-store';
import { WatchPage } from '../../src/renderer/src/features/watch/watch-page';
import { usePresetsStore } from '../../src/renderer/src/features/presets/presets-store';
import { useSessionStore } from '../../src/renderer/src/session/session-store';
import { fakeBridge, ok } from './fake-bridge';
import { fakeLibrary } from './fake-library';

beforeEach(() => {
  useSessionStore.setState({ page: 'library' });
  useLibraryStore.getState().reset();
});
afterEach(cleanup);

describe('empty states: said once, with the action that fills them', () => {
  it('an empty Library says so once and offers a search', async () => {
    const lib = fakeLibrary([]);
    setApi(fakeBridge({}, { fallback: (c, i) => lib.invoke(c, i) }).api);
    render(<LibraryPage />);
    const list = await screen.findByTestId('library-empty');
    expect(list.textContent).toBe('No datasets yet.');
    const detail = screen.getByTestId('library-nothing-open');
    expect(detail.textContent).toContain('Nothing saved yet');
    expect(detail.textContent).toContain('Every search you run is kept here');
    fireEvent.click(screen.getByTestId('library-go-search'));
    expect(useSessionStore.getState().page).toBe('search');
  });

  it('Watched, with nothing watched and no preset saved, says what a watch follows and leads to Search', async () => {
    setApi(
      fakeBridge({ 'watch.list': () => ok([]), 'presets.list': () => ok({ presets: [], setAside: null }) })
        .api,
    );
    usePresetsStore.setState({ presets: [] });
    render(<WatchPage />);
    const empty = await screen.findByTestId('watch-empty');
    expect(empty.textContent).toContain('No watched queries yet');
    expect(empty.textContent).toContain('save one on the Search page');
    expect(screen.getByTestId('watch-list-empty').textContent).toBe('No watched queries yet.');
    // Refresh… says why it cannot run, rather than sitting greyed out without a word.
    const refresh = screen.getByTestId('watch-refresh');
    expect(refresh.getAttribute('aria-disabled')).toBe('true');
    expect(refresh.getAttribute('aria-description')).toBe(
      'Nothing is watched yet: watch a preset, or a fetched dataset from the Library, first.',
    );
    fireEvent.click(screen.getByTestId('watch-go-search'));
    expect(useSessionStore.getState().page).toBe('search');
  });

  it('Watched, with presets saved, points at them and needs no detour', async () => {
    setApi(
      fakeBridge({
        'watch.list': () => ok([]),
        'presets.list': () =>
          ok({
            presets: [
              {
                id: 'p1',
                name: 'Steel TR',
                filter: { hs_codes: ['7208'] },
                createdAt: '2026-01-01T00:00:00.000Z',
                updatedAt: '2026-01-01T00:00:00.000Z',
              },
            ],
            setAside: null,
          }),
      }).api,
    );
    render(<WatchPage />);
    await waitFor(() => expect(usePresetsStore.getState().presets).toHaveLength(1));
    const empty = await screen.findByTestId('watch-empty');
    expect(empty.textContent).toContain('Choose a preset and Watch…');
    expect(screen.queryByTestId('watch-go-search')).toBeNull();
  });
});
