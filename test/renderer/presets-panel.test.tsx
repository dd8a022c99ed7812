// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import * as panel from '../../src/renderer/src/features/presets/presets-panel';
import * as store from '../../src/renderer/src/features/presets/presets-store';
import * as filters from '../../src/renderer/src/features/filters/filter-store';

/** The presets panel over the real presets handlers and dispatcher, each test on a fresh data folder. */
interface Backend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  writePresetsFile(text: string): Promise<void>;
  readPresetsFile(): Promise<string>;
  files(): Promise<string[]>;
  close(): Promise<void>;
}

let startBackend: () => Promise<Backend>;
let backend: Backend;
const calls: string[] = [];

beforeAll(async () => {
  const backendPath = new URL('../presets/panel-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as {
    startPresetsPanelBackend(): Promise<Backend>;
  };
  startBackend = mod.startPresetsPanelBackend;
  setApi(
    fakeBridge(
      {},
      {
        fallback: (c, i) => {
          calls.push(c);
          return backend.invoke(c, i);
        },
        checkInputs: false,
      },
    ).api,
  );
}, 60_000);

beforeEach(async () => {
  backend = await startBackend();
  calls.length = 0;
  store.usePresetsStore.setState({
    presets: [],
    loaded: false,
    error: null,
    lastImport: null,
    activeId: null,
    setAside: null,
    query: '',
    renamingId: null,
  });
  filters.filterStore.getState().reset();
});

afterEach(async () => {
  cleanup();
  await backend.close();
});

const steel = { hs_codes: ['7208'], importer_countries: ['DE'] };
const stored = (presets: unknown[]) =>
  JSON.stringify({ format: 'portolan-presets', version: 1, presets, last: null });
const good = {
  id: 'g1',
  name: 'Steel',
  filter: steel,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};
const long = 'L'.repeat(100);
const type = (testId: string, value: string) =>
  fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('presets panel', () => {
  it('says once which presets could not be read and where they were kept, and lists the rest', async () => {
    const bad = { ...good, id: 'b1', name: 'Bad dates', filter: { start_date: '2024-02-30' } };
    await backend.writePresetsFile(stored([good, bad, 'not a preset']));
    render(<panel.PresetsPanel />);

    const notice = await screen.findByTestId('presets-set-aside');
    expect(notice.textContent).toMatch(
      /^2 presets could not be read and were kept in .*presets\.corrupt-[^ ]+\.json\. Your other presets are safe\./,
    );
    expect(screen.getByTestId('preset-0').getAttribute('data-preset-name')).toBe('Steel');
    expect(screen.queryByTestId('presets-empty')).toBeNull();
    expect((await backend.files()).filter((f) => f.startsWith('presets.corrupt-'))).toHaveLength(1);

    fireEvent.click(screen.getByTestId('presets-set-aside-dismiss'));
    expect(screen.queryByTestId('presets-set-aside')).toBeNull();

    // Listing again (another page's panel, a reload of the list) does not repeat it.
    await act(() => store.usePresetsStore.getState().load());
    expect(screen.queryByTestId('presets-set-aside')).toBeNull();
  });

  it('duplicating a preset with a 100-character name keeps every preset after a restart', async () => {
    render(<panel.PresetsPanel />);
    await screen.findByTestId('presets-empty');
    act(() => filters.filterStore.getState().load(steel));
    type('preset-name-input', long);
    fireEvent.click(screen.getByTestId('preset-save'));
    await screen.findByTestId('preset-0');
    fireEvent.click(screen.getByTestId('preset-0-menu'));
    fireEvent.click(await screen.findByTestId('preset-0-duplicate'));
    await screen.findByTestId('preset-1');
    expect(screen.getByTestId('preset-1').getAttribute('data-preset-name')).toBe(`${'L'.repeat(95)} copy`);

    // A restart: a new store over the same file, as main would make it.
    const onDisk = await backend.readPresetsFile();
    await backend.close();
    backend = await startBackend();
    await backend.writePresetsFile(onDisk);
    store.usePresetsStore.setState({ loaded: false, presets: [] });
    await act(() => store.usePresetsStore.getState().load());
    expect(screen.getAllByTestId(/^preset-\d+$/).map((li) => li.getAttribute('data-preset-name'))).toEqual([
      long,
      `${'L'.repeat(95)} copy`,
    ]);
    expect(screen.queryByTestId('presets-set-aside')).toBeNull();
  });

  it('shows the import report with plain reasons and lets the user dismiss it', async () => {
    render(<panel.PresetsPanel />);
    await screen.findByTestId('presets-empty');
    const file = {
      format: 'portolan-presets',
      version: 1,
      presets: [{ name: 'Steel', filter: steel }, 'string item', null, 42],
    };
    await act(() => store.usePresetsStore.getState().importText(JSON.stringify(file)));
    const report = screen.getByTestId('presets-import-report');
    expect(report.textContent).toContain('Imported 1 preset.');
    expect(report.textContent).toContain('Skipped “#2”: this entry is a piece of text, not a preset');
    expect(report.textContent).toContain('Skipped “#3”: this entry is nothing (null), not a preset');
    expect(report.textContent).toContain('Skipped “#4”: this entry is a number, not a preset');
    expect(report.textContent).not.toContain('a name is required');

    fireEvent.click(screen.getByTestId('presets-import-report-dismiss'));
    expect(screen.queryByTestId('presets-import-report')).toBeNull();
    expect(store.usePresetsStore.getState().lastImport).toBeNull();
  });

  it('tells what the file should be when a list is imported', async () => {
    render(<panel.PresetsPanel />);
    await screen.findByTestId('presets-empty');
    await act(() => store.usePresetsStore.getState().importText('[{"name":"x"}]'));
    const error = screen.getByTestId('presets-error');
    expect(error.textContent).toContain('the file holds a list; it should be a presets export from Portolan');
    expect(error.textContent).not.toContain('Invalid input');
  });

  it('shortens a long name on the update button and keeps the full name in its tooltip', async () => {
    await backend.writePresetsFile(stored([{ ...good, name: long }]));
    render(<panel.PresetsPanel />);
    fireEvent.click(await screen.findByTestId('preset-0-load'));
    const update = screen.getByTestId('preset-update');
    expect(update.getAttribute('title')).toBe(`Update “${long}” with the current filter`);
    const name = screen.getByTestId('preset-update-name');
    expect(name.textContent).toBe(long);
    expect(name.style.textOverflow).toBe('ellipsis');
    expect(name.style.overflow).toBe('hidden');
    expect(name.style.whiteSpace).toBe('nowrap');
    expect(screen.getByTestId('preset-0-load').getAttribute('title')).toContain(long);
    expect(screen.getByTestId('preset-0-load').style.textOverflow).toBe('ellipsis');
  });

  it("names its icon-only buttons in a tooltip on hover (a row's ⋯, a rename's ✓), and ⋯ still opens its menu", async () => {
    await backend.writePresetsFile(stored([good]));
    render(<panel.PresetsPanel />);
    const menu = await screen.findByTestId('preset-0-menu');
    fireEvent.mouseEnter(menu);
    expect((await screen.findByRole('tooltip')).textContent).toBe(`Actions for ${good.name}`);
    fireEvent.mouseLeave(menu);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    fireEvent.click(menu);
    fireEvent.click(await screen.findByTestId('preset-0-rename'));
    fireEvent.mouseEnter(screen.getByTestId('preset-0-rename-save'));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Save the new name (Enter)');
  });

  it('checks a rename at the field and never sends a name that is too long', async () => {
    await backend.writePresetsFile(stored([good]));
    render(<panel.PresetsPanel />);
    fireEvent.click(await screen.findByTestId('preset-0-menu'));
    fireEvent.click(await screen.findByTestId('preset-0-rename'));
    const input = screen.getByTestId('preset-0-rename-input') as HTMLInputElement;
    expect(input.maxLength).toBe(100);

    // maxLength stops typing, not every way text arrives (a script, some paste paths): the check still holds.
    type('preset-0-rename-input', 'x'.repeat(150));
    expect(screen.getByTestId('preset-0-rename-error').textContent).toBe(
      'The name is 150 characters long; keep it to 100 at most',
    );
    expect((screen.getByTestId('preset-0-rename-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.submit(input.form!);
    await act(() => store.usePresetsStore.getState().rename('g1', 'x'.repeat(150)));
    expect(calls).not.toContain('presets.rename');
    expect(screen.queryByTestId('presets-error')).toBeNull();

    type('preset-0-rename-input', 'Steel\u202E, renamed');
    expect(screen.queryByTestId('preset-0-rename-error')).toBeNull();
    fireEvent.click(screen.getByTestId('preset-0-rename-save'));
    await waitFor(() =>
      expect(screen.getByTestId('preset-0').getAttribute('data-preset-name')).toBe('Steel, renamed'),
    );
    expect(calls).toContain('presets.rename');
  });

  it('gives the save name field the same limit and check', async () => {
    render(<panel.PresetsPanel />);
    await screen.findByTestId('presets-empty');
    act(() => filters.filterStore.getState().load(steel));
    expect((screen.getByTestId('preset-name-input') as HTMLInputElement).maxLength).toBe(100);
    type('preset-name-input', 'y'.repeat(101));
    expect(screen.getByTestId('preset-save-reason').textContent).toBe(
      'The name is 101 characters long; keep it to 100 at most',
    );
    expect((screen.getByTestId('preset-save') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('presets side list: search, rename in place, reorder', () => {
  const four = ['Steel DE', 'Coffee BR', 'Steel CN', 'Rice TH'].map((name, i) => ({
    ...good,
    id: `p${i}`,
    name,
  }));
  const names = () => screen.getAllByTestId(/^preset-\d+$/).map((li) => li.getAttribute('data-preset-name'));
  const reorders = () => calls.filter((c) => c === 'presets.reorder').length;

  it('finds presets by the words of their names', async () => {
    await backend.writePresetsFile(stored(four));
    render(<panel.PresetsPanel />);
    await screen.findByTestId('preset-3');
    type('presets-search', 'steel');
    expect(names()).toEqual(['Steel DE', 'Steel CN']);
    type('presets-search', 'steel cn');
    expect(names()).toEqual(['Steel CN']);
    // The row keeps its place in the whole list, so its actions act on the right preset.
    expect(screen.getByTestId('preset-2').getAttribute('data-preset-name')).toBe('Steel CN');
    type('presets-search', 'wheat');
    expect(screen.getByTestId('presets-none-match').textContent).toContain('wheat');
  });

  it('renames in place: F2 or a double-click opens the name, Enter saves it, Escape keeps the old one', async () => {
    await backend.writePresetsFile(stored(four));
    render(<panel.PresetsPanel />);
    fireEvent.keyDown(await screen.findByTestId('preset-1-load'), { key: 'F2' });
    const input = screen.getByTestId('preset-1-rename-input') as HTMLInputElement;
    expect(input.value).toBe('Coffee BR');
    fireEvent.change(input, { target: { value: 'Coffee, Brazil' } });
    fireEvent.submit(input.form!);
    await waitFor(() => expect(names()[1]).toBe('Coffee, Brazil'));
    expect(screen.queryByTestId('preset-1-rename-input')).toBeNull();

    fireEvent.doubleClick(screen.getByTestId('preset-3-load'));
    type('preset-3-rename-input', 'Something else');
    fireEvent.keyDown(screen.getByTestId('preset-3-rename-input'), { key: 'Escape' });
    expect(screen.queryByTestId('preset-3-rename-input')).toBeNull();
    expect(names()[3]).toBe('Rice TH');
    expect(calls.filter((c) => c === 'presets.rename')).toHaveLength(1);
  });

  it('reorders by dragging a row onto another, and by Alt+↑/↓, and keeps the order after a restart', async () => {
    await backend.writePresetsFile(stored(four));
    render(<panel.PresetsPanel />);
    await screen.findByTestId('preset-3');
    const dataTransfer = { setData: () => undefined, effectAllowed: '' };
    // Drag "Rice TH" (last) and drop it on the upper half of "Coffee BR" (second): it goes second.
    fireEvent.dragStart(screen.getByTestId('preset-3'), { dataTransfer });
    const target = screen.getByTestId('preset-1');
    target.getBoundingClientRect = () => ({ top: 100, height: 20, bottom: 120 }) as DOMRect;
    // jsdom has no DragEvent: a mouse event of the drag's type carries the pointer's position.
    const at = (type: string) => {
      const e = new MouseEvent(type, { bubbles: true, cancelable: true, clientY: 102 });
      Object.defineProperty(e, 'dataTransfer', { value: dataTransfer });
      fireEvent(target, e);
    };
    at('dragover');
    at('drop');
    await waitFor(() => expect(names()).toEqual(['Steel DE', 'Rice TH', 'Coffee BR', 'Steel CN']));
    expect(reorders()).toBe(1);

    fireEvent.keyDown(screen.getByTestId('preset-0-load'), { key: 'ArrowDown', altKey: true });
    await waitFor(() => expect(names()).toEqual(['Rice TH', 'Steel DE', 'Coffee BR', 'Steel CN']));

    const onDisk = await backend.readPresetsFile();
    await backend.close();
    backend = await startBackend();
    await backend.writePresetsFile(onDisk);
    store.usePresetsStore.setState({ loaded: false, presets: [] });
    await act(() => store.usePresetsStore.getState().load());
    expect(names()).toEqual(['Rice TH', 'Steel DE', 'Coffee BR', 'Steel CN']);
  });
});
