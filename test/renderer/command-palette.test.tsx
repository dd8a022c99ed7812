// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetView } from '@shared/library/library-contract';
import { handleCommand } from '../../src/renderer/src/app/commands';
import { CommandPalette } from '../../src/renderer/src/app/command-palette';
import { PALETTE_SEARCH, usePaletteStore } from '../../src/renderer/src/app/palette-store';
import { setApi } from '../../src/renderer/src/bridge/api';
import { useSessionStore } from '../../src/renderer/src/session';
import { resetAllStores } from '../../src/renderer/src/store';
import { fakeBridge, ok } from './fake-bridge';
import { dataset } from './fake-library';

/** What `library.list` answers: the palette reads the library's datasets each time it opens. */
let datasets: Promise<ReturnType<typeof ok<DatasetView[]>>> = Promise.resolve(ok([]));
const bridge = fakeBridge({
  'library.list': () => datasets,
  'presets.list': () => ok({ presets: [], setAside: null }),
  'watch.list': () => ok([]),
});

beforeAll(() => setApi(bridge.api));
beforeEach(() => {
  datasets = Promise.resolve(ok([]));
  resetAllStores();
  useSessionStore.setState({ page: 'search', booted: true });
});
afterEach(cleanup);

function setup() {
  render(
    <>
      <label>
        Product description
        <input />
      </label>
      <CommandPalette />
    </>,
  );
  const field = screen.getByLabelText('Product description');
  field.focus();
  return field;
}

async function openPalette(): Promise<HTMLElement> {
  act(() => handleCommand({ command: 'command-palette' }));
  return screen.findByTestId('command-palette-search');
}

describe('command palette focus', () => {
  it('closed by Escape, gives the focus back to the field it was opened from, even once its search box had it', async () => {
    const field = setup();
    const search = await openPalette();
    // The palette's focus trap moves the focus into its search box; on a busy machine that can happen
    // before any effect of the open has run.
    search.focus();
    expect(document.activeElement).toBe(search);
    fireEvent.keyDown(search, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('command-palette-search')).toBeNull());
    expect(document.activeElement).toBe(field);
  });

  it('gives the focus back once the palette has gone when its focus trap took it again while closing', () => {
    // In jsdom the palette closes at once; the store is driven as the palette drives it on a busy machine,
    // where the trap's delayed focus (a timer set at the open) runs after the close gave the focus back.
    render(
      <>
        <label>
          Product description
          <input />
        </label>
        <div role="dialog">
          <input aria-label="Command palette" data-testid={PALETTE_SEARCH} />
        </div>
      </>,
    );
    const field = screen.getByLabelText('Product description');
    field.focus();
    usePaletteStore.getState().open();
    usePaletteStore.getState().closed();
    expect(document.activeElement).toBe(field);
    screen.getByTestId(PALETTE_SEARCH).focus();
    usePaletteStore.getState().exited();
    expect(document.activeElement).toBe(field);
  });

  it('an entry chosen runs once the palette has closed and the focus is not pulled back to the field', async () => {
    const field = setup();
    const search = await openPalette();
    fireEvent.change(search, { target: { value: 'Library' } });
    fireEvent.click(await screen.findByTestId('palette-go-library'));
    await waitFor(() => expect(useSessionStore.getState().page).toBe('library'));
    await waitFor(() => expect(screen.queryByTestId('command-palette-search')).toBeNull());
    expect(document.activeElement).not.toBe(field);
  });

  it('Enter runs the first entry when the entries the analyst typed for arrive after the typing', async () => {
    let answer: (r: ReturnType<typeof ok<DatasetView[]>>) => void = () => undefined;
    datasets = new Promise((resolve) => (answer = resolve));
    setup();
    const search = await openPalette();
    fireEvent.change(search, { target: { value: 'Customs desk' } });
    await act(async () => answer(ok([dataset('d7', { name: 'Customs desk, January' })])));
    await screen.findByTestId('palette-dataset-d7');
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(useSessionStore.getState().page).toBe('library'));
  });
});
