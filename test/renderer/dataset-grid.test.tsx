// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import type { DatasetRow, GridFilterModel } from '@shared/library/library-contract';
import * as grid from '../../src/renderer/src/features/library/dataset-grid';
import { DEFAULT_SHIPMENT_COLUMNS } from '@shared/fields/default-columns';
import { useGridSelectionStore } from '../../src/renderer/src/components/grid/grid-selection-store';
import type { GridApi } from 'ag-grid-community';
import { optionsReappliedAcrossRenders } from './grid-options';

/**
 * The Library's dataset grid over a stand-in for library.getRows that filters like the library does
 * (a quick filter, an `equals` text filter on importerCountry and a resolved firm on anyFirm), so counts
 * and the empty state follow what the grid asked.
 */
interface GetRowsInput {
  id: string;
  startRow: number;
  endRow: number;
  quickFilter?: string;
  filterModel?: Record<string, { filter?: string; firmId?: string }> | null;
  resolvedFirms?: boolean;
  columns?: string[];
}

const STORED = 500;
const ALL: DatasetRow[] = Array.from({ length: STORED }, (_, i) => ({
  _row: i,
  hashId: `h${i}`,
  importerName: i % 50 === 0 ? 'Steelworks Ltd' : `Importer ${i % 7}`,
  importerCountry: i % 5 === 0 ? 'Türkiye' : 'Çin',
  regime: `R${i}`,
}));
const asked: GetRowsInput[] = [];

function answer(input: GetRowsInput): BridgeResult<unknown> {
  const q = (input.quickFilter ?? '').toLowerCase();
  const country = input.filterModel?.importerCountry?.filter;
  // The resolved firm "steel" is every row of Steelworks Ltd.
  const firm = input.filterModel?.anyFirm?.firmId;
  const rows = ALL.filter(
    (r) =>
      (!q || String(r.importerName).toLowerCase().includes(q)) &&
      (!country || r.importerCountry === country) &&
      (!firm || (firm === 'steel' && r.importerName === 'Steelworks Ltd')),
  );
  const block = rows
    .slice(input.startRow, input.endRow)
    .map((r) => (input.resolvedFirms ? { ...r, importerFirm: `${String(r.importerName)} (firm)` } : r));
  return { ok: true, value: { rows: block, lastRow: rows.length } };
}

/** Answers for these quick filters wait until released: a slow query overtaken by a newer one. */
const held = new Map<string, Promise<void>>();

beforeAll(async () => {
  setApi(
    fakeBridge(
      {},
      {
        fallback: async (channel, input) => {
          if (channel === 'library.getRows') asked.push(input as GetRowsInput);
          await held.get((input as GetRowsInput).quickFilter ?? '');
          await held.get(`dataset:${(input as GetRowsInput).id}`);
          // A dataset that is gone by the time its rows are read.
          if ((input as GetRowsInput).id === 'ds-gone')
            return {
              ok: false,
              error: { kind: 'NotFound', message: 'This dataset is no longer in the library.' },
            };
          return channel === 'library.getRows'
            ? answer(input as GetRowsInput)
            : { ok: false, error: { kind: 'Internal', message: channel } };
        },
      },
    ).api,
  );
}, 30_000);
afterEach(() => {
  cleanup();
  asked.length = 0;
  held.clear();
  // Each case starts from a grid with nothing remembered (filters, columns: kept per grid on purpose).
  window.localStorage.clear();
});

function Grid(props: {
  quickFilter?: string;
  filterModel?: GridFilterModel;
  onView?: (v: grid.DatasetGridView) => void;
  onRowCount?: (n: number | null) => void;
}) {
  return (
    <grid.DatasetGrid
      datasetId="ds-1"
      kind="shipments"
      storedRows={STORED}
      quickFilter={props.quickFilter ?? ''}
      initialFilterModel={props.filterModel ?? null}
      {...(props.onView ? { onView: props.onView } : {})}
      {...(props.onRowCount ? { onRowCount: props.onRowCount } : {})}
    />
  );
}

const countText = () => screen.getByTestId('library-grid-count').textContent;

describe('DatasetGrid', () => {
  it('says how many rows there are, and how many of them match a quick filter', async () => {
    const counts: (number | null)[] = [];
    const { rerender } = render(<Grid onRowCount={(n) => counts.push(n)} />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    expect(screen.queryByTestId('library-grid-empty')).toBeNull();
    rerender(<Grid quickFilter="steelworks" onRowCount={(n) => counts.push(n)} />);
    await waitFor(() => expect(countText()).toBe('10 of 500 rows match'), { timeout: 10_000 });
    expect(counts.at(-1)).toBe(10);
    expect(screen.getByTestId('library-grid-count').getAttribute('data-narrowed')).toBe('true');
  });

  it('keeps the newest count when an older, slower answer arrives after it', async () => {
    let release = (): void => undefined;
    held.set('', new Promise<void>((r) => (release = r)));
    const { rerender } = render(<Grid />);
    await waitFor(() => expect(asked.length).toBeGreaterThan(0), { timeout: 10_000 });
    rerender(<Grid quickFilter="steelworks" />);
    await waitFor(() => expect(countText()).toBe('10 of 500 rows match'), { timeout: 10_000 });
    release();
    await new Promise((r) => setTimeout(r, 200));
    expect(countText()).toBe('10 of 500 rows match');
  });

  it('counts the rows a column filter keeps (a drill-down opens the grid with one)', async () => {
    render(
      <Grid filterModel={{ importerCountry: { filterType: 'text', type: 'equals', filter: 'Türkiye' } }} />,
    );
    await waitFor(() => expect(countText()).toBe('100 of 500 rows match'), { timeout: 10_000 });
    expect(asked.at(-1)?.filterModel).toEqual({
      importerCountry: { filterType: 'text', type: 'equals', filter: 'Türkiye' },
    });
  });

  it('opens a dataset with the filters it was last left with; a drill-down neither takes them nor leaves its own', async () => {
    const key = 'portolan.grid.library-dataset-ds-1.filters';
    const turkey = { importerCountry: { filterType: 'text', type: 'equals', filter: 'Türkiye' } };
    // A drill-down's condition is not remembered as the dataset's filter.
    render(<Grid filterModel={turkey as GridFilterModel} />);
    await waitFor(() => expect(countText()).toBe('100 of 500 rows match'), { timeout: 10_000 });
    expect(window.localStorage.getItem(key)).toBeNull();
    cleanup();
    // The dataset's own filter, as it was left, comes back with it.
    window.localStorage.setItem(key, JSON.stringify(turkey));
    render(<Grid />);
    await waitFor(() => expect(countText()).toBe('100 of 500 rows match'), { timeout: 10_000 });
    expect(asked.at(-1)?.filterModel).toEqual(turkey);
    cleanup();
    // A drill-down into the same dataset shows its own rows only, not those under the remembered filter too.
    render(<Grid filterModel={{ anyFirm: { filterType: 'firm', firmId: 'steel' } }} />);
    await waitFor(() => expect(countText()).toBe('10 of 500 rows match'), { timeout: 10_000 });
    expect(asked.at(-1)?.filterModel).toEqual({ anyFirm: { filterType: 'firm', firmId: 'steel' } });
    expect(JSON.parse(window.localStorage.getItem(key) ?? 'null')).toEqual(turkey);
  });

  it('keeps a resolved firm from a drill-down on every query and in the view (ag-grid has no column for it)', async () => {
    const views: grid.DatasetGridView[] = [];
    render(
      <Grid
        filterModel={{ anyFirm: { filterType: 'firm', firmId: 'steel' } }}
        onView={(v) => views.push(v)}
      />,
    );
    await waitFor(() => expect(countText()).toBe('10 of 500 rows match'), { timeout: 10_000 });
    expect(asked.at(-1)?.filterModel).toEqual({ anyFirm: { filterType: 'firm', firmId: 'steel' } });
    // The export of the view reads the same rows.
    await waitFor(() =>
      expect(views.at(-1)?.filterModel).toEqual({ anyFirm: { filterType: 'firm', firmId: 'steel' } }),
    );
    // Column conditions go to ag-grid's filters, the firm stays with the grid.
    expect(
      grid.splitDrillFilter({
        exporterFirm: { filterType: 'firm', firmId: 'x' },
        importerCountry: { filterType: 'text', type: 'equals', filter: 'Türkiye' },
      }),
    ).toEqual({
      columns: { importerCountry: { filterType: 'text', type: 'equals', filter: 'Türkiye' } },
      pinned: { exporterFirm: { filterType: 'firm', firmId: 'x' } },
    });
  });

  it('shows "No rows match the filters" over the grid when nothing matches', async () => {
    const { rerender } = render(<Grid />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    rerender(<Grid quickFilter="no such importer" />);
    await waitFor(
      () => expect(screen.getByTestId('library-grid-empty').textContent).toBe('No rows match the filters'),
      {
        timeout: 10_000,
      },
    );
    expect(countText()).toBe('0 of 500 rows match');
    rerender(<Grid quickFilter="" />);
    await waitFor(() => expect(screen.queryByTestId('library-grid-empty')).toBeNull(), { timeout: 10_000 });
  });

  it('has the column chooser: showing a hidden field puts it in the view the export reads', async () => {
    const views: grid.DatasetGridView[] = [];
    render(<Grid onView={(v) => views.push(v)} />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    expect(views.at(-1)?.columns).not.toContain('regime');
    const before = views.at(-1)?.columns.length ?? 0;
    fireEvent.click(screen.getByTestId('library-columns-toggle'));
    const box = (await screen.findByTestId('library-columns-col-regime')) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(views.at(-1)?.columns).toContain('regime'), { timeout: 10_000 });
    expect(views.at(-1)?.columns.length).toBe(before + 1);
    fireEvent.click(screen.getByTestId('library-columns-reset'));
    await waitFor(() => expect(views.at(-1)?.columns).not.toContain('regime'), { timeout: 10_000 });
  });

  it('asks for the resolved firm names only while a resolved firm column shows', async () => {
    const views: grid.DatasetGridView[] = [];
    render(<Grid onView={(v) => views.push(v)} />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    // The grid asks for the columns it shows: a resolved firm column is among them only once shown.
    const asksNames = (q: (typeof asked)[number]): boolean =>
      q.resolvedFirms === true || (q.columns ?? []).includes('importerFirm');
    expect(asked.some(asksNames)).toBe(false);
    fireEvent.click(screen.getByTestId('library-columns-toggle'));
    const box = (await screen.findByTestId('library-columns-col-importerFirm')) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByLabelText('Importer Firm (resolved)')).toBe(box);
    const before = asked.length;
    fireEvent.click(box);
    // The blocks are asked again, with the names.
    await waitFor(() => expect(asked.slice(before).some(asksNames)).toBe(true), {
      timeout: 10_000,
    });
    await waitFor(() => expect(views.at(-1)?.columns).toContain('importerFirm'));
    fireEvent.click(screen.getByTestId('library-columns-reset'));
    await waitFor(() => expect(views.at(-1)?.columns).not.toContain('importerFirm'), { timeout: 10_000 });
  });

  it('renders again without handing ag-grid its options anew (each one it takes as changed, it reapplies)', async () => {
    let api: GridApi | null = null;
    const onApi = (a: GridApi | null) => {
      api = a;
    };
    const element = () => (
      <grid.DatasetGrid
        datasetId="ds-1"
        kind="shipments"
        storedRows={STORED}
        quickFilter=""
        initialFilterModel={null}
        onApi={onApi}
      />
    );
    const { rerender } = render(element());
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    // The page renders again (an answer, a count, the usage line) with the same grid.
    expect(await optionsReappliedAcrossRenders(api!, () => rerender(element()))).toEqual([]);
  });

  it("draws an answer's first rows from the rows that came with it, at once and without a read", async () => {
    // Only the timeouts are the test's: a wait for a scroll to settle (ag-grid's debounce held every
    // block 50 ms, the answer's first included) shows as rows still loading once 10 ms have passed.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      render(
        <grid.DatasetGrid
          datasetId="ds-head"
          kind="shipments"
          storedRows={STORED}
          head={ALL.slice(0, 200)}
          quickFilter=""
          initialFilterModel={null}
        />,
      );
      await vi.advanceTimersByTimeAsync(10);
      expect(countText()).toBe('500 rows');
      const first = document.querySelector('.ag-row[row-index="0"]');
      expect(first?.classList.contains('ag-row-loading')).toBe(false);
      expect(first?.textContent).toContain('Steelworks Ltd');
      expect(document.querySelector('.ag-row[row-index="1"]')?.textContent).toContain('Importer 1');
      expect(asked).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  describe("another dataset in the same grid (the Search page's next answer)", () => {
    let api: GridApi | null = null;
    // One handler for every render: a new one would be a changed option to ag-grid.
    const keepApi = (a: GridApi | null) => {
      if (a) api = a;
    };
    const named = (prefix: string, n: number): DatasetRow[] =>
      Array.from({ length: n }, (_, i) => ({
        _row: i,
        hashId: `${prefix}${i}`,
        importerName: `${prefix} ${i}`,
      }));
    const answerGrid = (
      datasetId: string,
      head: readonly DatasetRow[] | undefined,
      onError?: (m: string | null) => void,
    ) => (
      <grid.DatasetGrid
        datasetId={datasetId}
        kind="shipments"
        storedRows={head?.length ?? STORED}
        {...(head ? { head } : {})}
        quickFilter=""
        initialFilterModel={null}
        // As on the Search page: the column filters stay with the grid, not with an answer.
        filtersId="search-answers"
        onApi={keepApi}
        {...(onError ? { onError } : {})}
      />
    );
    const firstRow = () => document.querySelector('.ag-row[row-index="0"]');

    it('shows its first rows in place of the last ones: same data source, no loading rows between, at the top', async () => {
      const first = named('First', 200);
      const next = named('Next', 200);
      const { rerender } = render(answerGrid('ds-first', first));
      await waitFor(() => expect(firstRow()?.textContent).toContain('First 0'), { timeout: 10_000 });
      api!.ensureIndexVisible(150, 'top');
      const loadingRows: Element[] = [];
      const observer = new MutationObserver(() =>
        loadingRows.push(...document.querySelectorAll('.ag-row-loading, .ag-skeleton-container')),
      );
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      try {
        // ag-grid reports a data source handed to it as a changed option: none is.
        expect(
          await optionsReappliedAcrossRenders(api!, () => rerender(answerGrid('ds-next', next))),
        ).toEqual([]);
        await waitFor(() => expect(firstRow()?.textContent).toContain('Next 0'), { timeout: 10_000 });
      } finally {
        observer.disconnect();
      }
      expect(loadingRows).toEqual([]);
      expect(api!.getFirstDisplayedRowIndex()).toBe(0);
      expect(countText()).toBe('200 rows');
      // Both answers' first blocks came with them.
      expect(asked).toEqual([]);
    });

    it('takes nothing from a block of the last dataset that is answered after the switch', async () => {
      const errors: (string | null)[] = [];
      const onError = (m: string | null) => errors.push(m);
      let release = () => {};
      held.set('dataset:ds-gone', new Promise<void>((r) => (release = r)));
      const { rerender } = render(answerGrid('ds-gone', undefined, onError));
      await waitFor(() => expect(asked.some((q) => q.id === 'ds-gone')).toBe(true), { timeout: 10_000 });
      rerender(answerGrid('ds-next', named('Next', 200), onError));
      await waitFor(() => expect(firstRow()?.textContent).toContain('Next 0'), { timeout: 10_000 });
      release();
      await new Promise((r) => setTimeout(r, 50));
      expect(errors.filter((e) => e !== null)).toEqual([]);
      expect(countText()).toBe('200 rows');
      expect(screen.getByTestId('library-grid').dataset.loading).toBe('false');
    });
  });

  describe('a head of the shown fields only', () => {
    // The answer's first rows with the fields the grid shows (its defaults) and no other.
    const HEAD_COLUMNS = [...DEFAULT_SHIPMENT_COLUMNS];
    const partialHead = ALL.slice(0, 200).map((r) => ({
      _row: r._row,
      importerName: r.importerName ?? null,
      importerCountry: r.importerCountry ?? null,
    }));
    const HeadGrid = () => (
      <grid.DatasetGrid
        datasetId="ds-head-fields"
        kind="shipments"
        storedRows={STORED}
        head={partialHead}
        headColumns={HEAD_COLUMNS}
        quickFilter=""
        initialFilterModel={null}
      />
    );
    const cell = (row: number, colId: string) =>
      document.querySelector(`.ag-row[row-index="${row}"] [col-id="${colId}"]`)?.textContent ?? null;

    it('draws the first rows from it without a read, and reads a column shown besides from the library', async () => {
      render(<HeadGrid />);
      await waitFor(() => expect(cell(0, 'importerName')).toBe('Steelworks Ltd'), { timeout: 10_000 });
      expect(asked).toEqual([]);
      fireEvent.click(screen.getByTestId('library-columns-toggle'));
      fireEvent.click(await screen.findByTestId('library-columns-col-regime'));
      // Not a blank column: its values are read, with the other shown columns.
      await waitFor(() => expect(cell(0, 'regime')).toBe('R0'), { timeout: 10_000 });
      expect(asked.some((q) => q.startRow === 0 && (q.columns ?? []).includes('regime'))).toBe(true);
    });

    it('is not used for a grid that shows a field it lacks: the first block is read', async () => {
      window.localStorage.setItem(
        'portolan.grid.library-shipments.columns',
        JSON.stringify([
          { colId: 'importerName', hide: false },
          { colId: 'regime', hide: false },
        ]),
      );
      render(<HeadGrid />);
      await waitFor(() => expect(cell(0, 'regime')).toBe('R0'), { timeout: 10_000 });
      expect(asked.some((q) => q.startRow === 0)).toBe(true);
    });

    it("gives the record view a head row's every field, read from the library", async () => {
      render(<HeadGrid />);
      await waitFor(() => expect(cell(0, 'importerName')).toBe('Steelworks Ltd'), { timeout: 10_000 });
      useGridSelectionStore.getState().openRecord('library-shipments', 0);
      const view = await screen.findByTestId('library-grid-record');
      // `regime` is no field of the head's rows.
      await waitFor(() => expect(view.textContent).toContain('R0'), { timeout: 10_000 });
      expect(asked.some((q) => q.startRow === 0 && q.endRow === 1 && !q.columns)).toBe(true);
      useGridSelectionStore.getState().closeRecord();
    });
  });

  it('column chooser names each column as its header does, never by its field', async () => {
    render(<Grid />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    fireEvent.click(screen.getByTestId('library-columns-toggle'));
    const chooser = await screen.findByTestId('library-columns');
    const box = screen.getByTestId('library-columns-col-importerTaxId') as HTMLInputElement;
    expect(within(within(chooser).getByRole('group', { name: 'Importer' })).getByLabelText('Tax ID')).toBe(
      box,
    );
    // The fields' own names (importerTaxId, hsCode…) mean nothing to an analyst.
    expect(chooser.textContent).not.toMatch(/importerTaxId|importerName|hsCode|arrivalDate/);
    const pin = within(within(chooser).getByRole('group', { name: 'Importer' })).getByLabelText('Pin Tax ID');
    expect(pin).toHaveProperty('value', '');
  });

  it('column chooser by keyboard: focus goes to its search box, Escape closes it and returns to the toggle', async () => {
    render(<Grid />);
    await waitFor(() => expect(countText()).toBe('500 rows'), { timeout: 10_000 });
    const toggle = screen.getByTestId('library-columns-toggle');
    toggle.focus();
    fireEvent.click(toggle);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('library-columns-search')));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('library-columns')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });
});
