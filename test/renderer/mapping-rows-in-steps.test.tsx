// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useRowsInSteps } from '../../src/renderer/src/components/use-rows-in-steps';
import { setApi } from '../../src/renderer/src/bridge/api';
import { LibraryPage, connectLibraryStore, useLibraryStore } from '../../src/renderer/src/features/library';
import { useImportStore } from '../../src/renderer/src/features/library/import-store';
import { fakeBridge } from './fake-bridge';
import { browserHostOver, fakeLibrary, importPreview, type FakeLibrary } from './fake-library';

/**
 * A long list drawn in two steps: its first rows with the render that shows it, the rest in a render
 * of their own right after (a file's mapping of 88 columns drawn at once held the window for 98–139 ms).
 */
function Rows({ list, total, drawn }: { list: unknown; total: number; drawn: number[] }) {
  const n = useRowsInSteps(list, total, 3);
  drawn.push(n);
  return (
    <ul>
      {Array.from({ length: n }, (_, i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );
}

afterEach(cleanup);

describe('a long list drawn in steps', () => {
  it('draws its first rows first, then every row in a render of its own', async () => {
    const drawn: number[] = [];
    render(<Rows list={{}} total={10} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(10));
    expect(drawn[0]).toBe(3);
    expect(drawn.at(-1)).toBe(10);
  });

  it('starts again with the first rows when another list is shown, and keeps every row of the same one', async () => {
    const drawn: number[] = [];
    const first = 'file a';
    const view = render(<Rows list={first} total={10} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(10));
    drawn.length = 0;
    view.rerender(<Rows list={first} total={12} drawn={drawn} />);
    expect(drawn).toEqual([12]);
    drawn.length = 0;
    view.rerender(<Rows list="file b" total={8} drawn={drawn} />);
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(8));
    expect(drawn[0]).toBe(3);
  });

  it('draws a short list whole at once', () => {
    const drawn: number[] = [];
    render(<Rows list={{}} total={2} drawn={drawn} />);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(new Set(drawn)).toEqual(new Set([2]));
  });
});

describe('the import mapping of a file with many columns', () => {
  let lib: FakeLibrary = fakeLibrary([]);
  let disconnect: () => void = () => undefined;
  beforeAll(() => {
    setApi(
      fakeBridge(
        {},
        browserHostOver(() => lib),
      ).api,
    );
    disconnect = connectLibraryStore();
  });
  afterAll(() => disconnect());
  beforeEach(() => {
    lib = fakeLibrary([]);
    useLibraryStore.getState().reset();
    useImportStore.getState().reset();
  });

  it('lists every column of the file, and a column far down maps like the first', async () => {
    const columns = Array.from({ length: 88 }, (_, i) => ({
      index: i,
      header: `Column ${i + 1}`,
      field: null,
      leftOut: false,
      samples: [`value ${i + 1}`],
    }));
    lib.previewAnswer = () => importPreview({ columns });
    render(<LibraryPage />);
    const input = await screen.findByTestId('library-import-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'wide.csv', { type: 'text/csv' })] } });
    const mapping = await screen.findByTestId('import-mapping');
    await waitFor(() => expect(within(mapping).getAllByTestId(/^import-column-\d+$/)).toHaveLength(88));
    expect(within(mapping).getByTestId('import-column-87').getAttribute('data-header')).toBe('Column 88');
    expect(screen.getByTestId('import-samples-87').textContent).toBe('value 88');

    // A choice brings a new preview of the same columns: no row leaves the list meanwhile, so the
    // analyst's place in it stays.
    const removed: string[] = [];
    const watch = new MutationObserver((changes) => {
      for (const c of changes)
        for (const n of c.removedNodes)
          if (n instanceof HTMLElement && n.dataset.testid?.startsWith('import-column-'))
            removed.push(n.dataset.testid);
    });
    watch.observe(mapping, { childList: true, subtree: true });
    fireEvent.mouseDown(screen.getByTestId('import-field-87'));
    fireEvent.click(await screen.findByRole('option', { name: 'Leave out (not imported)' }));
    await waitFor(() => expect(useImportStore.getState().leftOut).toEqual([87]));
    await waitFor(() => expect(lib.callsTo('library.previewImport')).toHaveLength(2));
    await waitFor(() =>
      expect(screen.getByTestId('import-form').getAttribute('data-checking')).toBe('false'),
    );
    watch.disconnect();
    expect(removed).toEqual([]);
    expect(within(mapping).getAllByTestId(/^import-column-\d+$/)).toHaveLength(88);
  });
});
