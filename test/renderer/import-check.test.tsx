// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fieldTitleOf } from '@shared/fields';
import type { ImportCheckView } from '@shared/library/import-contract';
import type { ImportWarningView } from '@shared/library/library-contract';
import { setApi } from '../../src/renderer/src/bridge/api';
import { LibraryPage, connectLibraryStore, useLibraryStore } from '../../src/renderer/src/features/library';
import { useImportStore } from '../../src/renderer/src/features/library/import-store';
import { fakeBridge, type FakeBridge } from './fake-bridge';
import { browserHostOver, fakeLibrary, importPreview, type FakeLibrary } from './fake-library';

/**
 * The import dialog's whole-file check: once the dialog shows a file, main reads all of it under the
 * plan shown; the dialog says how far it got, counts what would not import over the whole file, and
 * stops the check when the plan changes or the dialog closes. Import stays available throughout.
 */
let lib: FakeLibrary = fakeLibrary([]);
let bridge: FakeBridge;
let disconnect: () => void = () => undefined;

beforeAll(() => {
  bridge = fakeBridge(
    {},
    browserHostOver(() => lib),
  );
  setApi(bridge.api);
  disconnect = connectLibraryStore();
});
afterAll(() => disconnect());
beforeEach(() => {
  lib = fakeLibrary([]);
  useLibraryStore.getState().reset();
  useImportStore.getState().reset();
});
afterEach(cleanup);

const oddDate = (count: number, at: string[]): ImportWarningView => ({
  field: 'arrivalDate',
  count,
  firstAt: at[0]!,
  example: '32.01.2026',
  message: `Arrival Date: ${count} values are not dates written as yyyy-MM-dd (first: ${at[0]!}, "32.01.2026")`,
  at,
});

function progress(checkId: string, over: Partial<ImportCheckView>): ImportCheckView {
  return {
    checkId,
    rowsChecked: 0,
    rowsTotal: 100_000,
    totalIsEstimate: false,
    blankRows: 0,
    issues: [],
    unnamedFound: [],
    done: false,
    ...over,
  };
}

async function openDialog(): Promise<void> {
  render(<LibraryPage />);
  const input = await screen.findByTestId('library-import-input');
  fireEvent.change(input, { target: { files: [new File(['x'], 'desk.csv', { type: 'text/csv' })] } });
  await screen.findByTestId('import-mapping');
}

const checkCalls = () => lib.callsTo('library.checkImport') as { checkId: string; plan: unknown }[];

describe('import dialog: the whole file checked before anything is stored', () => {
  it('checks the whole file under the plan shown, says how far it got, then counts over every row', async () => {
    let finish: (v: ImportCheckView) => void = () => undefined;
    lib.checkAnswer = (_file, checkId) =>
      new Promise((resolve) => (finish = (v) => resolve({ ok: true, value: { ...v, checkId } })));
    await openDialog();
    await waitFor(() => expect(checkCalls()).toHaveLength(1));
    const { checkId, plan } = checkCalls()[0]!;
    expect(plan).toEqual({
      sheet: 0,
      headerRow: 1,
      kind: 'shipments',
      mapping: ['importerName', null],
      locale: { decimal: '.', dates: 'dmy' },
    });
    // Before its first report: the preview's rows, and that the rest is being checked.
    expect(screen.getByTestId('import-check').getAttribute('data-state')).toBe('checking');
    expect(screen.getByTestId('import-check-status').textContent).toBe(
      'Checking the whole file… You can import without waiting.',
    );
    expect(screen.getByTestId('import-issues').textContent).toContain('The first 2 rows import as they are.');

    bridge.emit(
      'library.importCheck',
      progress(checkId, { rowsChecked: 40_000, issues: [oddDate(3, ['row 41', 'row 900', 'row 39000'])] }),
    );
    expect(screen.getByTestId('import-check-status').textContent).toBe(
      'Checking the whole file: 40,000 of 100,000 rows checked… You can import without waiting.',
    );
    const issues = screen.getByTestId('import-issues');
    expect(issues.getAttribute('data-scope')).toBe('rows');
    expect(issues.textContent).toContain(
      'Values that will not import as they are (in the first 40,000 rows)',
    );
    expect(screen.getByTestId('import-issue').textContent).toContain('Arrival Date: 3 values are not dates');
    expect(screen.getByTestId('import-issue-rows').textContent).toBe('Rows 41, 900, 39000.');
    // Import stays available while it checks.
    expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(false);

    // A report of another check (one stopped earlier) changes nothing.
    bridge.emit('library.importCheck', progress('check-old', { rowsChecked: 90_000 }));
    expect(screen.getByTestId('import-check').getAttribute('data-rows-checked')).toBe('40000');

    act(() =>
      finish(
        progress(checkId, {
          rowsChecked: 100_000,
          blankRows: 2,
          done: true,
          issues: [oddDate(12, ['row 41', 'row 900', 'row 39000', 'row 60000', 'row 99000'])],
        }),
      ),
    );
    await waitFor(() => expect(screen.getByTestId('import-check').getAttribute('data-state')).toBe('done'));
    expect(screen.getByTestId('import-check-status').textContent).toBe('Whole file checked: 100,000 rows.');
    expect(screen.getByTestId('import-issues').getAttribute('data-scope')).toBe('file');
    expect(screen.getByTestId('import-issues').textContent).toContain(
      'Values that will not import as they are (in all 100,000 rows)',
    );
    expect(screen.getByTestId('import-issue-rows').textContent).toBe(
      'Rows 41, 900, 39000, 60000, 99000 and 7 more.',
    );
    expect(screen.getByTestId('import-issues').textContent).toContain('2 blank lines are skipped.');
    // A finished check is not stopped on closing.
    fireEvent.click(screen.getByTestId('import-cancel'));
    expect(lib.callsTo('library.cancelImportCheck')).toEqual([]);
  });

  it('stops the check when the mapping changes and checks again under the new one; stops it on close', async () => {
    await openDialog();
    await waitFor(() => expect(checkCalls()).toHaveLength(1));
    const first = checkCalls()[0]!.checkId;
    bridge.emit('library.importCheck', progress(first, { rowsChecked: 5_000 }));

    act(() => useImportStore.getState().setField(1, 'vesselName'));
    expect(lib.callsTo('library.cancelImportCheck')).toEqual([{ checkId: first }]);
    await waitFor(() => expect(checkCalls()).toHaveLength(2));
    const second = checkCalls()[1]!;
    expect(second.checkId).not.toBe(first);
    expect(second.plan).toMatchObject({ mapping: ['importerName', 'vesselName'] });
    // The stopped check's late reports are not shown as the new plan's.
    bridge.emit('library.importCheck', progress(first, { rowsChecked: 6_000 }));
    expect(screen.getByTestId('import-check').getAttribute('data-rows-checked')).toBe('0');

    act(() => useImportStore.getState().setLocale({ decimal: ',' }));
    await waitFor(() => expect(checkCalls()).toHaveLength(3));
    expect(lib.callsTo('library.cancelImportCheck')).toEqual([
      { checkId: first },
      { checkId: second.checkId },
    ]);
    expect(checkCalls()[2]!.plan).toMatchObject({ locale: { decimal: ',', dates: 'dmy' } });

    // Escape closes the dialog: the check under way stops with it.
    fireEvent.keyDown(screen.getByTestId('import-name'), { key: 'Escape' });
    await waitFor(() => expect(useImportStore.getState().phase).toBe('closed'));
    expect(lib.callsTo('library.cancelImportCheck').at(-1)).toEqual({ checkId: checkCalls()[2]!.checkId });
  });

  it('imports without waiting for the check, which stops; a file it cannot read is said in words', async () => {
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, format: 'xlsx' });
    lib.checkAnswer = () =>
      Promise.resolve({
        ok: false,
        error: {
          kind: 'InvalidInput',
          message:
            'Cannot import desk.csv: its sheet holds more than 30,000,000 cells, more than Portolan imports at once. The library was not changed.',
        },
      });
    await openDialog();
    await waitFor(() => expect(screen.getByTestId('import-check').getAttribute('data-state')).toBe('failed'));
    expect(screen.getByTestId('import-check-status').textContent).toMatch(
      /^The whole file could not be checked: Cannot import desk\.csv: its sheet holds more than 30,000,000 cells/,
    );

    lib.checkAnswer = () => new Promise(() => undefined);
    act(() => useImportStore.getState().setField(1, 'vesselName'));
    await waitFor(() => expect(checkCalls()).toHaveLength(2));
    const running = checkCalls()[1]!.checkId;
    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() => expect(lib.callsTo('library.import')).toHaveLength(1));
    expect(lib.callsTo('library.cancelImportCheck')).toEqual([{ checkId: running }]);
    expect(screen.getByTestId('import-progress')).toBeTruthy();
  });
});

describe('import dialog: the progress of the import', () => {
  it('counts the rows stored of the lines a CSV has, and says why the count starts again when the file is read row by row', async () => {
    await openDialog();
    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() => expect(lib.callsTo('library.import')).toHaveLength(1));
    const progress = (done: number, step: string | null) =>
      bridge.emit('jobs.progress', {
        kind: 'import',
        jobId: 'import-1',
        label: step ? `Import of desk.csv: ${step}` : 'Import of desk.csv',
        done,
        total: 200_001,
        unit: 'rows',
        etaSeconds: null,
        step,
      });
    const shown = () => screen.getByTestId('import-progress');
    act(() => progress(150_000, null));
    expect(shown().textContent).toContain('150,000 of about 200,001 rows stored');
    expect(screen.queryByTestId('import-step')).toBeNull();

    act(() => progress(0, 'some rows need a closer look, so the file is read again row by row'));
    expect(screen.getByTestId('import-step').textContent).toBe(
      'Some rows need a closer look, so the file is read again row by row.',
    );
    expect(shown().textContent).toContain('0 of about 200,001 rows stored');
    act(() => progress(40_000, 'some rows need a closer look, so the file is read again row by row'));
    expect(shown().getAttribute('data-done')).toBe('40000');
    expect(screen.getByTestId('import-step')).toBeTruthy();
  });
});

describe('import dialog: the field pickers of the mapping', () => {
  it('shows each column’s field as a plain control; the one focused becomes the searchable list, and a choice maps it', async () => {
    await openDialog();
    const picker = () => screen.getByTestId('import-field-1');
    // A file can have a hundred columns: none of them is a searchable list until the analyst uses it.
    expect(picker().tagName).toBe('BUTTON');
    expect(picker().textContent).toBe('Extra column (kept under its header)');
    expect(screen.getByTestId('import-field-0').textContent).toBe(fieldTitleOf('shipments', 'importerName'));
    expect(document.querySelectorAll('input[data-testid^="import-field-"]')).toHaveLength(0);

    // Reached with the keyboard (Tab): the list takes the focus, and typing searches it.
    fireEvent.focus(picker());
    const input = picker() as HTMLInputElement;
    expect(input.tagName).toBe('INPUT');
    expect(document.activeElement).toBe(input);
    const vessel = fieldTitleOf('shipments', 'vesselName');
    fireEvent.change(input, { target: { value: vessel } });
    fireEvent.click(await screen.findByRole('option', { name: vessel }));
    expect(useImportStore.getState().mapping[1]).toBe('vesselName');
    expect(screen.getByTestId('import-field-0').tagName).toBe('BUTTON');

    // Left, it is a plain control again, showing the choice.
    fireEvent.blur(picker());
    expect(picker().tagName).toBe('BUTTON');
    expect(picker().getAttribute('data-field')).toBe('vesselName');
    expect(picker().textContent).toBe(vessel);
  });

  it('leaves a column out when the analyst chooses so, says so, and imports without it', async () => {
    await openDialog();
    const picker = () => screen.getByTestId('import-field-1');
    const reason = () => screen.getByTestId('import-reason').textContent;
    expect(reason()).toMatch(/1 column is kept as extra column/);
    fireEvent.mouseDown(picker());
    fireEvent.click(await screen.findByRole('option', { name: 'Leave out (not imported)' }));
    expect(useImportStore.getState()).toMatchObject({ mapping: ['importerName', null], leftOut: [1] });
    // The new preview is asked for with the column left out, and shows it so.
    await waitFor(() => expect(reason()).toBe('1 column is left out.'));
    const previews = lib.callsTo('library.previewImport') as { choices?: { leftOut?: number[] } }[];
    expect(previews.at(-1)?.choices?.leftOut).toEqual([1]);
    fireEvent.blur(picker());
    expect(picker().textContent).toBe('Leave out (not imported)');
    expect(picker().getAttribute('data-left-out')).toBe('true');
    lib.importAnswer = () => new Promise(() => undefined);
    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() => expect(lib.callsTo('library.import')).toHaveLength(1));
    const [call] = lib.callsTo('library.import') as { plan: { mapping: unknown[]; leftOut?: number[] } }[];
    expect(call!.plan).toMatchObject({ mapping: ['importerName', null], leftOut: [1] });
  });

  it('imports a column left out by the preview again when the analyst picks a field for it', async () => {
    lib.previewAnswer = (file, choices) => {
      const leftOut = (choices?.leftOut as number[] | undefined) ?? (choices?.mapping ? [] : [1]);
      const mapping = (choices?.mapping as (string | null)[] | undefined) ?? ['importerName', null];
      return importPreview({
        fileName: file.fileName,
        columns: importPreview().columns.map((c, i) => ({
          ...c,
          field: mapping[i] ?? null,
          leftOut: leftOut.includes(i),
        })),
      });
    };
    await openDialog();
    expect(useImportStore.getState().leftOut).toEqual([1]);
    expect(screen.getByTestId('import-field-1').textContent).toBe('Leave out (not imported)');
    act(() => useImportStore.getState().setField(1, null));
    expect(useImportStore.getState().leftOut).toEqual([]);
    await waitFor(() =>
      expect(screen.getByTestId('import-reason').textContent).toMatch(/1 column is kept as extra/),
    );
    const previews = lib.callsTo('library.previewImport') as { choices?: { leftOut?: number[] } }[];
    expect(previews.at(-1)?.choices?.leftOut).toEqual([]);
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
    await openDialog();
    // Drawn in steps (the first rows with the dialog), every row is listed.
    const mapping = screen.getByTestId('import-mapping');
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

describe('import dialog: columns with no name found further down', () => {
  it('lists a column the preview’s rows left empty once the check finds values in it, and counts it as kept', async () => {
    const columns = [
      ...importPreview().columns,
      { index: 2, header: 'Column C', field: null, leftOut: false, samples: ['', ''], empty: true },
    ];
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, columns });
    await openDialog();
    await waitFor(() => expect(checkCalls()).toHaveLength(1));
    expect(screen.queryByTestId('import-column-2')).toBeNull();
    expect(screen.getByTestId('import-reason').textContent).toBe(
      '1 column is kept as extra column: shown, filterable and exported with the dataset.',
    );
    bridge.emit(
      'library.importCheck',
      progress(checkCalls()[0]!.checkId, {
        rowsChecked: 5_000,
        unnamedFound: [
          { index: 2, header: 'Column C', count: 3, at: 'row 301', example: 'checked' },
          // Past the header row's last column: kept under its letters, nothing to choose for it.
          { index: 3, header: 'Column D', count: 1, at: 'row 4000', example: 'late note' },
        ],
      }),
    );
    const c = await screen.findByTestId('import-column-2');
    expect(c.getAttribute('data-found-later')).toBe('true');
    expect(screen.getByTestId('import-samples-2').textContent).toBe(
      'None in the first rows; 3 values further down, the first in row 301: “checked”',
    );
    // It can be mapped or left out as any column can.
    expect(screen.getByTestId('import-field-2')).toBeTruthy();
    expect(screen.getByTestId('import-samples-3').textContent).toBe(
      'None in the first rows; 1 value further down, the first in row 4000: “late note”',
    );
    expect(screen.getByTestId('import-reason').textContent).toBe(
      '3 columns are kept as extra columns: shown, filterable and exported with the dataset.',
    );
  });
});

describe('import dialog: its controls', () => {
  it('labels its choices as Mantine labels its fields, so "Records" reads as "Header row" does', async () => {
    await openDialog();
    const label = (text: string) => screen.getByText(text, { selector: '.mantine-InputWrapper-label' });
    expect(label('Header row')).toBeTruthy();
    expect(label('Records')).toBeTruthy();
  });

  it('shows the header row grouped as every number is ("1,250")', async () => {
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, headerRow: 1_250 });
    await openDialog();
    expect((screen.getByTestId('import-header-row') as HTMLInputElement).value).toBe('1,250');
  });

  it('refuses a file with nothing below its header, or nothing at all, in words, with Import off', async () => {
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, rowsChecked: 0 });
    await openDialog();
    const reason = screen.getByTestId('import-reason');
    expect(reason.textContent).toBe('Nothing to import: desk.csv has no rows below its header row (row 1)');
    expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(true);
    // No good news about zero rows.
    expect(screen.getByTestId('import-dialog').textContent).not.toMatch(/0 rows import as they are/);
    cleanup();
    useImportStore.getState().reset();
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, columns: [], rowsChecked: 0 });
    await openDialog();
    expect(screen.getByTestId('import-reason').textContent).toBe(
      'Nothing to import: desk.csv has no columns and no rows',
    );
    expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('import dialog: the locale asked only where it is in question', () => {
  const withDates = (dateOrderMatters: boolean) => (file: { fileName: string }) =>
    importPreview({
      fileName: file.fileName,
      dateOrderMatters,
      columns: [
        { index: 0, header: 'Arrival', field: 'arrivalDate', leftOut: false, samples: ['2025-12-31'] },
        { index: 1, header: 'Weight', field: 'netWeight', leftOut: false, samples: ['1234.5'] },
      ],
    });

  it('does not ask the day order when every date is ISO (yyyy-MM-dd); the decimal separator still', async () => {
    lib.previewAnswer = withDates(false);
    await openDialog();
    expect(screen.getByTestId('import-decimal')).toBeTruthy();
    expect(screen.queryByTestId('import-dates')).toBeNull();
    expect(screen.queryByText('Dates are written')).toBeNull();
  });

  it('asks it when the dates write day and month as numbers', async () => {
    lib.previewAnswer = withDates(true);
    await openDialog();
    expect(screen.getByTestId('import-dates')).toBeTruthy();
    expect(screen.getByTestId('import-decimal')).toBeTruthy();
  });
});
