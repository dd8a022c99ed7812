// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import * as page from '../../src/renderer/src/features/library/library-page';
import * as store from '../../src/renderer/src/features/library/library-store';
import { fakeBridge } from './fake-bridge';
import {
  browserHostOver,
  dataset,
  fakeLibrary,
  importedAs,
  importPreview,
  type FakeLibrary,
} from './fake-library';
import { useImportStore } from '../../src/renderer/src/features/library/import-store';
import { JobsPanel, useJobsStore } from '../../src/renderer/src/features/jobs';

/** The Library page over an in-memory library that answers the bridge the way main does. */
let lib: FakeLibrary = fakeLibrary([]);

beforeAll(() => {
  // The browser host's transport: files picked in the page are uploaded (the desktop's dialog is tested below).
  setApi(
    fakeBridge(
      {},
      browserHostOver(() => lib),
    ).api,
  );
});
beforeEach(() => {
  lib = fakeLibrary([
    dataset('a', { name: 'Steel coils Q1', tags: ['steel'] }),
    dataset('b', { name: 'Cotton firms', kind: 'firms', tags: ['cotton'] }),
  ]);
  store.useLibraryStore.getState().reset();
  useImportStore.getState().reset();
});
afterEach(cleanup);

async function renderPage(): Promise<void> {
  render(<page.LibraryPage />);
  await screen.findByTestId('library-row-a');
}

async function openA(): Promise<void> {
  fireEvent.click(screen.getByTestId('library-open-a'));
  await screen.findByTestId('library-detail');
}

/** Opens the header's name, tags and notes (collapsed by default: the grid comes first). */
async function editHeader(): Promise<void> {
  fireEvent.click(screen.getByTestId('library-header-toggle'));
  await screen.findByTestId('library-rename-input');
}

/** The list row's menu, then its Delete. */
async function askDelete(id: string): Promise<void> {
  fireEvent.click(screen.getByTestId(`library-menu-${id}`));
  fireEvent.click(await screen.findByTestId(`library-delete-${id}`));
  await screen.findByTestId(`library-delete-confirm-box-${id}`);
}

function typeInto(testId: string, value: string): void {
  fireEvent.change(screen.getByTestId(testId), { target: { value } });
}

describe('library page: the open dataset', () => {
  it('stays open, with its grid, while the search or tag filter hides it from the list; a delete closes it', async () => {
    await renderPage();
    await openA();
    expect(screen.getByTestId('library-grid')).toBeTruthy();

    typeInto('library-search', 'cotton');
    await waitFor(() => expect(screen.queryByTestId('library-row-a')).toBeNull());
    expect(screen.getByTestId('library-detail').getAttribute('data-dataset-id')).toBe('a');
    expect(screen.getByTestId('library-detail-name').textContent).toBe('Steel coils Q1');
    expect(screen.getByTestId('library-grid')).toBeTruthy();
    expect(screen.queryByTestId('library-open-missing')).toBeNull();

    typeInto('library-search', '');
    typeInto('library-tag-filter', 'cot');
    await waitFor(() => expect(screen.getByTestId('library-empty')).toBeTruthy());
    expect(screen.getByTestId('library-detail').getAttribute('data-dataset-id')).toBe('a');

    // Edits while the list hides it still show in the open dataset.
    await editHeader();
    typeInto('library-rename-input', 'Steel coils, first quarter');
    fireEvent.click(screen.getByTestId('library-rename-save'));
    await waitFor(() =>
      expect(screen.getByTestId('library-detail-name').textContent).toBe('Steel coils, first quarter'),
    );

    typeInto('library-tag-filter', '');
    await screen.findByTestId('library-row-a');
    await askDelete('a');
    fireEvent.click(screen.getByTestId('library-delete-confirm-a'));
    await waitFor(() => expect(screen.queryByTestId('library-row-a')).toBeNull());
    expect(screen.queryByTestId('library-detail')).toBeNull();
  });

  it('opens a dataset the filtered list does not show (a drill-down or a saved-copy offer)', async () => {
    await renderPage();
    typeInto('library-search', 'cotton');
    await waitFor(() => expect(screen.queryByTestId('library-row-a')).toBeNull());
    act(() => store.useLibraryStore.getState().openDataset('a', { label: 'Importer ACME' }));
    await screen.findByTestId('library-detail');
    expect(screen.getByTestId('library-detail-name').textContent).toBe('Steel coils Q1');
    expect(lib.callsTo('library.get')).toContainEqual({ id: 'a' });
  });

  it('says so when the open dataset was deleted elsewhere', async () => {
    await renderPage();
    lib.datasets = lib.datasets.filter((d) => d.id !== 'b');
    act(() => store.useLibraryStore.getState().openDataset('b'));
    await waitFor(() =>
      expect(screen.getByTestId('library-open-missing').textContent).toMatch(/no longer in the library/),
    );
    fireEvent.click(screen.getByTestId('library-close'));
    expect(screen.queryByTestId('library-open-state')).toBeNull();
  });
});

describe('library page: editing', () => {
  it('saves tags without case duplicates, keeping the first spelling, and says "Tags saved"', async () => {
    await renderPage();
    await openA();
    await editHeader();
    typeInto('library-tags-input', 'steel, Steel, STEEL , q1');
    fireEvent.click(screen.getByTestId('library-tags-save'));
    await waitFor(() => expect(screen.getByTestId('library-tags-a').textContent).toBe('steel, q1'));
    expect(lib.callsTo('library.setTags')).toEqual([{ id: 'a', tags: ['steel', 'q1'] }]);
    expect((screen.getByTestId('library-tags-input') as HTMLInputElement).value).toBe('steel, q1');
    const message = screen.getByTestId('library-tags-message');
    expect(message.textContent).toBe('Tags saved');
    expect(message.getAttribute('data-ok')).toBe('true');
  });

  it('keeps notes and a name being typed when the tags are saved, and saves them after', async () => {
    await renderPage();
    await openA();
    await editHeader();
    const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
    typeInto('library-notes-input', 'Check the March rows');
    typeInto('library-rename-input', 'Steel, H1');
    typeInto('library-tags-input', 'steel, Steel, q1');
    fireEvent.click(screen.getByTestId('library-tags-save'));
    await waitFor(() => expect(screen.getByTestId('library-tags-a').textContent).toBe('steel, q1'));
    expect(value('library-tags-input')).toBe('steel, q1');
    expect(value('library-notes-input')).toBe('Check the March rows');
    expect(value('library-rename-input')).toBe('Steel, H1');
    fireEvent.click(screen.getByTestId('library-notes-save'));
    await waitFor(() => expect(screen.getByTestId('library-notes-message').textContent).toBe('Notes saved'));
    expect(lib.callsTo('library.setNotes')).toEqual([{ id: 'a', notes: 'Check the March rows' }]);
    expect(value('library-notes-input')).toBe('Check the March rows');
    expect(value('library-rename-input')).toBe('Steel, H1');
  });

  it('says "Name saved" after a rename, and the field shows the saved name', async () => {
    await renderPage();
    await openA();
    await editHeader();
    typeInto('library-rename-input', '  Steel, H1  ');
    fireEvent.click(screen.getByTestId('library-rename-save'));
    await waitFor(() => expect(screen.getByTestId('library-name-message').textContent).toBe('Name saved'));
    expect((screen.getByTestId('library-rename-input') as HTMLInputElement).value).toBe('Steel, H1');
    expect(screen.getByTestId('library-row-a').getAttribute('data-name')).toBe('Steel, H1');
  });

  it('refuses a tag over 100 characters in plain words, next to the field, without sending anything', async () => {
    await renderPage();
    await openA();
    await editHeader();
    typeInto('library-tags-input', `q1, ${'x'.repeat(101)}`);
    fireEvent.click(screen.getByTestId('library-tags-save'));
    const message = await screen.findByTestId('library-tags-message');
    expect(message.textContent).toMatch(/^A tag can be at most 100 characters/);
    expect(message.getAttribute('data-ok')).toBe('false');
    expect(message.closest('form')?.contains(screen.getByTestId('library-tags-input'))).toBe(true);
    expect(screen.getByTestId('library-tags-input').getAttribute('aria-invalid')).toBe('true');
    expect(lib.callsTo('library.setTags')).toEqual([]);
    // What was typed stays, to be corrected; typing clears the complaint.
    expect((screen.getByTestId('library-tags-input') as HTMLInputElement).value).toContain('q1, xxx');
    typeInto('library-tags-input', 'q1');
    expect(screen.queryByTestId('library-tags-message')).toBeNull();
  });

  it('refuses more than 50 tags in plain words without sending anything', async () => {
    await renderPage();
    await openA();
    await editHeader();
    typeInto('library-tags-input', Array.from({ length: 51 }, (_, i) => `t${i}`).join(', '));
    fireEvent.click(screen.getByTestId('library-tags-save'));
    expect((await screen.findByTestId('library-tags-message')).textContent).toMatch(/^At most 50 tags/);
    expect(lib.callsTo('library.setTags')).toEqual([]);
  });
});

describe('library page: long names', () => {
  it('cuts a 200-character name with an ellipsis in the list; the title wraps to two lines; the whole name in the tooltip', async () => {
    const long = 'N'.repeat(200);
    lib.datasets[0]!.name = long;
    await renderPage();
    const link = screen.getByTestId('library-open-a');
    expect(link.getAttribute('title')).toBe(long);
    const shown = within(link).getByText(long);
    expect(shown.style.textOverflow).toBe('ellipsis');
    expect(shown.style.overflow).toBe('hidden');
    expect(shown.style.whiteSpace).toBe('nowrap');
    await openA();
    const title = screen.getByTestId('library-detail-name');
    expect(title.getAttribute('title')).toBe(long);
    // Two lines, then cut: a narrow window still shows most of a name (no one-line ellipsis).
    expect(title.hasAttribute('data-line-clamp')).toBe(true);
    expect(title.style.getPropertyValue('--title-line-clamp')).toBe('2');
    expect(title.style.whiteSpace).not.toBe('nowrap');
    expect(title.style.overflowWrap).toBe('anywhere');
  });
});

describe('library page: delete confirmation', () => {
  it('asks in a dialog that names what goes; Keep and Escape cancel, nothing is deleted', async () => {
    await renderPage();
    await askDelete('a');
    expect(screen.getByTestId('library-delete-confirm-box-a').textContent).toContain(
      'The dataset and its rows are deleted for good.',
    );
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('library-delete-cancel-a')));
    fireEvent.click(screen.getByTestId('library-delete-cancel-a'));
    await waitFor(() => expect(screen.queryByTestId('library-delete-confirm-box-a')).toBeNull());

    await askDelete('b');
    fireEvent.keyDown(screen.getByTestId('library-delete-cancel-b'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('library-delete-confirm-box-b')).toBeNull());
    expect(lib.callsTo('library.delete')).toEqual([]);
  });
});

describe('library page: import', () => {
  function pick(file: File): void {
    fireEvent.change(screen.getByTestId('library-import-input'), { target: { files: [file] } });
  }

  it('refuses a file over 100 MB at once with the designed message, sending nothing', async () => {
    await renderPage();
    const file = new File(['a,b\n1,2\n'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(file, 'size', { value: 119 * 1024 * 1024 });
    pick(file);
    // No waiting: the refusal comes before anything is read.
    const error = screen.getByTestId('library-import-error');
    expect(error.textContent).toContain(
      'Cannot import huge.csv: the file is larger than 100 MB. The library was not changed.',
    );
    expect(error.getAttribute('data-error-kind')).toBe('InvalidInput');
    expect(screen.queryByTestId('library-import-status')).toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    expect(lib.callsTo('library.import')).toEqual([]);
    expect(lib.uploads).toEqual([]);
  });

  /** Waits for the import dialog to show the mapping of the file. */
  async function mappingShown(): Promise<HTMLElement> {
    const dialog = await screen.findByTestId('import-mapping');
    return dialog;
  }

  it('uploads the file, previews it, maps its columns in a dialog, then imports it by handle with the plan and opens it', async () => {
    let answer: (rows: number) => void = () => undefined;
    lib.importAnswer = (input) =>
      new Promise((resolve) => {
        answer = (rows) =>
          resolve({
            ok: true,
            value: {
              dataset: dataset('c', { name: input.fileName }),
              format: 'csv',
              rows,
              filterRestored: false,
            },
          });
      });
    await renderPage();
    const text = 'Consignee,Remarks\nAyşe,İzmir\n';
    pick(new File([text], 'firms.csv', { type: 'text/csv' }));
    expect(screen.getByTestId('library-import-status').textContent).toBe('Reading firms.csv…');
    await mappingShown();
    expect(lib.uploads).toHaveLength(1);
    expect(lib.uploads[0]!.text).toBe(text);
    // The preview names the upload by its handle, never by a path; nothing is imported yet.
    expect(lib.callsTo('library.previewImport')).toEqual([{ file: lib.uploads[0]!.handle }]);
    expect(lib.callsTo('library.import')).toEqual([]);
    expect(screen.getByTestId('import-samples-0').textContent).toBe('Acme · Beta');
    expect(screen.getByTestId('import-reason').textContent).toMatch(/^1 column is kept as extra column/);
    expect(screen.getByTestId('import-issues').getAttribute('data-count')).toBe('0');

    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() => expect(lib.callsTo('library.import')).toHaveLength(1));
    expect(lib.callsTo('library.import')[0]).toEqual({
      file: lib.uploads[0]!.handle,
      plan: {
        sheet: 0,
        headerRow: 1,
        kind: 'shipments',
        mapping: ['importerName', null],
        locale: { decimal: '.', dates: 'dmy' },
      },
    });
    expect(screen.getByTestId('import-progress')).toBeTruthy();
    lib.datasets.push(dataset('c', { name: 'firms.csv' }));
    act(() => answer(1));
    await waitFor(() =>
      expect(screen.getByTestId('library-import-status').textContent).toBe('Imported 1 row from firms.csv'),
    );
    await waitFor(() => expect(screen.queryByTestId('import-progress')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('library-detail').getAttribute('data-dataset-id')).toBe('c'),
    );
  });

  it('lists the values of the first rows that would not import as they are, with their rows', async () => {
    lib.previewAnswer = (file) =>
      importPreview({
        fileName: file.fileName,
        issues: [
          {
            field: 'arrivalDate',
            count: 7,
            firstAt: 'row 3',
            example: '32.01.2026',
            message:
              'Arrival Date: 7 values are not dates written as yyyy-MM-dd (first: row 3, "32.01.2026")',
            at: ['row 3', 'row 5', 'row 8', 'row 9', 'row 11'],
          },
        ],
        rowsChecked: 59,
        blankRows: 1,
      });
    await renderPage();
    pick(new File(['x'], 'odd.csv', { type: 'text/csv' }));
    await mappingShown();
    const issues = screen.getByTestId('import-issues');
    expect(issues.textContent).toContain('in the first 59 rows');
    expect(screen.getByTestId('import-issue').textContent).toContain('Arrival Date: 7 values are not dates');
    expect(screen.getByTestId('import-issue-rows').textContent).toBe('Rows 3, 5, 8, 9, 11 and 2 more.');
    expect(issues.textContent).toContain('1 blank line is skipped.');
  });

  it('changing a column’s field previews again with the plan; the same field twice blocks Import, in words', async () => {
    await renderPage();
    pick(new File(['x'], 'desk.csv', { type: 'text/csv' }));
    await mappingShown();
    act(() => useImportStore.getState().setField(1, 'importerName'));
    await waitFor(() => expect(lib.callsTo('library.previewImport')).toHaveLength(2));
    expect(lib.callsTo('library.previewImport')[1]).toMatchObject({
      choices: { sheet: 0, headerRow: 1, kind: 'shipments', mapping: ['importerName', 'importerName'] },
    });
    await waitFor(() =>
      expect(screen.getByTestId('import-reason').textContent).toBe(
        'Importer Name is chosen for 2 columns (Consignee, Remarks): choose it for one',
      ),
    );
    expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(true);
    act(() => useImportStore.getState().setField(1, 'vesselName'));
    await waitFor(() =>
      expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(false),
    );
    // Cancel closes the dialog without importing; the page says nothing.
    fireEvent.click(screen.getByTestId('import-cancel'));
    await waitFor(() => expect(screen.queryByTestId('import-mapping')).toBeNull());
    expect(lib.callsTo('library.import')).toEqual([]);
    expect(screen.queryByTestId('library-import-status')).toBeNull();
  });

  it('imports Portolan’s own export at once, without asking for a mapping', async () => {
    lib.previewAnswer = (file) => importPreview({ fileName: file.fileName, fromPortolan: true });
    lib.importAnswer = importedAs('p', 'parquet', 5, { filterRestored: true });
    await renderPage();
    pick(new File(['x'], 'export.parquet'));
    await waitFor(() =>
      expect(screen.getByTestId('library-import-status').textContent).toBe(
        'Imported 5 rows from export.parquet',
      ),
    );
    expect(lib.callsTo('library.import')).toEqual([{ file: lib.uploads[0]!.handle }]);
    expect(screen.queryByTestId('import-mapping')).toBeNull();
  });

  it('lists what the import kept but will not sort or filter as dates or numbers', async () => {
    lib.importAnswer = importedAs('w', 'csv', 3, {
      warnings: [
        {
          field: 'arrivalDate',
          count: 2,
          firstAt: 'row 2',
          example: '2023-02-30',
          message: '2 arrivalDate values are not dates (first: "2023-02-30", row 2).',
        },
      ],
    });
    await renderPage();
    pick(new File(['x'], 'odd.csv', { type: 'text/csv' }));
    await mappingShown();
    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('library-import-status').textContent).toBe('Imported 3 rows from odd.csv'),
    );
    expect(screen.getByTestId('library-import-warnings').textContent).toBe(
      '2 arrivalDate values are not dates (first: "2023-02-30", row 2).',
    );
  });

  it('in the desktop app, picks the file in the open dialog of main and imports it by the handle main issued', async () => {
    store.useLibraryStore.setState({ importPicker: 'dialog' });
    lib.importAnswer = importedAs('d', 'json', 4);
    await renderPage();
    expect(screen.queryByTestId('library-import-input')).toBeNull();
    // Cancelling the dialog imports nothing and says nothing.
    fireEvent.click(screen.getByTestId('library-import-choose'));
    await waitFor(() => expect(lib.callsTo('library.chooseImportFile')).toHaveLength(1));
    expect(lib.callsTo('library.import')).toEqual([]);
    expect(screen.queryByTestId('library-import-status')).toBeNull();

    lib.dialogChoice = { handle: `fh_${'d'.repeat(32)}`, fileName: 'records.json', text: '' };
    fireEvent.click(screen.getByTestId('library-import-choose'));
    await mappingShown();
    fireEvent.click(screen.getByTestId('import-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('library-import-status').textContent).toBe(
        'Imported 4 rows from records.json',
      ),
    );
    expect(lib.callsTo('library.import')).toMatchObject([{ file: `fh_${'d'.repeat(32)}` }]);
  });

  it('in the desktop app, a dropped file is imported by the handle main issued for it; a refusal is said', async () => {
    const handle = `fh_${'e'.repeat(32)}`;
    const dropped: File[] = [];
    let refusal: string | null = 'notes.docx cannot be imported: .docx files are not supported.';
    setApi(
      fakeBridge(
        {},
        {
          fallback: (channel, input) => lib.invoke(channel, input),
          droppedFiles: {
            importDropped: (file) => {
              dropped.push(file);
              if (refusal)
                return Promise.resolve({ ok: false, error: { kind: 'InvalidInput', message: refusal } });
              // Main adopted the path behind the File: the page gets a handle, a name and a folder only.
              lib.dialogChoice = { handle, fileName: file.name, text: '' };
              return Promise.resolve({
                ok: true,
                value: { handle, name: file.name, location: '/home/analyst' },
              });
            },
          },
        },
      ).api,
    );
    try {
      store.useLibraryStore.setState({ importPicker: 'dialog' });
      lib.importAnswer = importedAs('d', 'csv', 7);
      await renderPage();
      const drop = (file: File) =>
        fireEvent.drop(screen.getByTestId('library-page'), {
          dataTransfer: { files: [file], types: ['Files'] },
        });

      drop(new File(['x'], 'notes.docx'));
      await waitFor(() =>
        expect(screen.getByTestId('library-import-error').textContent).toContain(
          'notes.docx cannot be imported: .docx files are not supported.',
        ),
      );
      expect(lib.callsTo('library.previewImport')).toEqual([]);

      refusal = null;
      drop(new File(['a,b'], 'arrivals.csv', { type: 'text/csv' }));
      await mappingShown();
      fireEvent.click(screen.getByTestId('import-confirm'));
      await waitFor(() =>
        expect(screen.getByTestId('library-import-status').textContent).toBe(
          'Imported 7 rows from arrivals.csv',
        ),
      );
      expect(dropped.map((f) => f.name)).toEqual(['notes.docx', 'arrivals.csv']);
      expect(lib.callsTo('library.import')).toMatchObject([{ file: handle }]);
      // Nothing was uploaded: the desktop reads the file where it is.
      expect(lib.uploads).toEqual([]);
    } finally {
      setApi(
        fakeBridge(
          {},
          browserHostOver(() => lib),
        ).api,
      );
    }
  });
});

describe('library page: storage trouble', () => {
  it('a library held by another program says which, and Retry lists it once it lets go', async () => {
    lib.listError = {
      kind: 'StorageLocked',
      message:
        "Another program has Portolan's library open (node, process 4242): often a second Portolan, or a tool reading library.duckdb. Close it, then choose Retry.",
    };
    render(<page.LibraryPage />);
    const error = await screen.findByTestId('library-error');
    expect(error.getAttribute('data-error-kind')).toBe('StorageLocked');
    expect(error.textContent).toContain('Library in use');
    expect(error.textContent).toContain('process 4242');
    expect(error.textContent).not.toContain('Something went wrong');
    // Said once: not again by the jobs tray over the page, and the page does not call the library empty.
    act(() => useJobsStore.setState({ error: lib.listError, errorFromList: true }));
    render(<JobsPanel />);
    expect(screen.getAllByText(/process 4242/)).toHaveLength(1);
    expect(screen.getByTestId('jobs-locked').textContent).toContain(
      'Jobs cannot be listed while another program has the library open',
    );
    expect(screen.queryByTestId('jobs-error')).toBeNull();
    expect(screen.getByTestId('library-nothing-open').textContent).not.toContain('Nothing saved yet');
    lib.listError = null;
    fireEvent.click(screen.getByTestId('library-retry'));
    await screen.findByTestId('library-row-a');
    expect(screen.queryByTestId('library-error')).toBeNull();
    expect(screen.queryByTestId('library-retry')).toBeNull();
  });

  it('says once that a damaged library was kept aside and a fresh one opened, until dismissed', async () => {
    lib.recovered = {
      keptAs: 'library.damaged-20261123-154012.duckdb',
      notice:
        'Portolan could not read its library file (it is damaged), so it kept it aside as library.damaged-20261123-154012.duckdb in its data folder and started a fresh, empty library. Datasets saved before are in that file.',
    };
    await renderPage();
    const notice = await screen.findByTestId('library-recovery-notice');
    expect(notice.textContent).toContain('library.damaged-20261123-154012.duckdb');
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('library-recovery-notice')).toBeNull();
    // Asked once per session, not on every refresh.
    await act(() => store.useLibraryStore.getState().refresh());
    expect(lib.callsTo('library.status')).toHaveLength(1);
    expect(screen.queryByTestId('library-recovery-notice')).toBeNull();
  });
});

describe('library page: versions of one query', () => {
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour).toISOString();

  it('lists repeated searches of one query as one dataset; its history opens any version', async () => {
    lib = fakeLibrary([
      dataset('v3', { name: 'Shipments · all', series: 's1', fetchedAt: at(1), storedRows: 300 }),
      dataset('x', { name: 'Cotton firms', kind: 'firms', series: 's2', fetchedAt: at(2) }),
      dataset('v2', { name: 'Shipments · all', series: 's1', fetchedAt: at(3), storedRows: 200 }),
      dataset('v1', { name: 'Shipments · all', series: 's1', fetchedAt: at(30), storedRows: 100 }),
    ]);
    render(<page.LibraryPage />);
    await screen.findByTestId('library-row-v3');
    // One entry per query, the newest version shown: not "Shipments · all" three times.
    expect(screen.getAllByText('Shipments · all')).toHaveLength(1);
    expect(screen.queryByTestId('library-row-v2')).toBeNull();
    expect(screen.getByTestId('library-versions-v3').textContent).toBe('3 versions');
    expect(screen.queryByTestId('library-versions-x')).toBeNull();

    fireEvent.click(screen.getByTestId('library-open-v3'));
    const history = await screen.findByTestId('library-history');
    expect(history.textContent).toBe('Latest of 3');
    fireEvent.click(history);
    fireEvent.click(await screen.findByTestId('library-version-v1'));
    await waitFor(() =>
      expect(screen.getByTestId('library-detail').getAttribute('data-dataset-id')).toBe('v1'),
    );
    expect(screen.getByTestId('library-history').textContent).toBe('Version 1 of 3');
    expect(screen.getByTestId('library-detail-rows').textContent).toBe('100 rows');
    // The size and the facts read as one line, a dot between them.
    expect(screen.getByTestId('library-detail-line').textContent).toMatch(/^100 rows · \S/);
    // The list's entry stays selected while an older version is open.
    expect(screen.getByTestId('library-row-v3').getAttribute('aria-selected')).toBe('true');
  });

  it('deletes every version of a dataset from the list, after saying how many', async () => {
    lib = fakeLibrary([
      dataset('v2', { name: 'Steel', series: 's1', fetchedAt: at(1) }),
      dataset('v1', { name: 'Steel', series: 's1', fetchedAt: at(2) }),
      dataset('k', { name: 'Kept', series: 's2', fetchedAt: at(3) }),
    ]);
    render(<page.LibraryPage />);
    await screen.findByTestId('library-row-v2');
    await askDelete('v2');
    expect(screen.getByTestId('library-delete-confirm-box-v2').textContent).toContain(
      'All 2 versions of this dataset and their rows are deleted for good.',
    );
    fireEvent.click(screen.getByTestId('library-delete-confirm-v2'));
    await waitFor(() => expect(screen.queryByTestId('library-row-v2')).toBeNull());
    expect(lib.callsTo('library.delete')).toEqual([{ id: 'v2' }, { id: 'v1' }]);
    expect(lib.datasets.map((d) => d.id)).toEqual(['k']);
  });
});

describe('groupVersions', () => {
  it('keeps the first (newest) of each series and counts the rest; no series is a series of its own', () => {
    const entries = store.groupVersions([
      dataset('a', { series: 'q' }),
      dataset('b'),
      dataset('c', { series: 'q' }),
      dataset('d'),
    ]);
    expect(entries.map((e) => [e.dataset.id, e.versions])).toEqual([
      ['a', 2],
      ['b', 1],
      ['d', 1],
    ]);
  });
});
