// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from './render';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import {
  Button,
  Checkbox,
  Radio,
  SegmentedControl,
  Select,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { setApi } from '../../src/renderer/src/bridge/api';
import { useEnterSubmits } from '../../src/renderer/src/components/use-enter-submits';
import { ExportButton } from '../../src/renderer/src/features/export/export-button';
import { FetchAllDialog } from '../../src/renderer/src/features/jobs/fetch-all-dialog';
import { useJobsStore } from '../../src/renderer/src/features/jobs/jobs-store';
import { LibraryPage, connectLibraryStore, useLibraryStore } from '../../src/renderer/src/features/library';
import { useImportStore } from '../../src/renderer/src/features/library/import-store';
import { fakeBridge, ok, type FakeBridge } from './fake-bridge';
import { jobEstimate } from './fake-main';
import { browserHostOver, fakeLibrary, importPreview, type FakeLibrary } from './fake-library';

/**
 * Enter runs a dialog's primary action from any of its controls (a radio button, a checkbox, a switch,
 * a segmented choice, a closed list), as it does from a text field; not from a control that takes
 * Enter itself (a button, a textarea, an open list), nor while the action is disabled.
 */
const enter = (el: Element, init: Record<string, unknown> = {}) =>
  fireEvent.keyDown(el, { key: 'Enter', code: 'Enter', ...init });

let lib: FakeLibrary = fakeLibrary([]);
let bridge: FakeBridge;
let exportStarts: unknown[] = [];
let disconnect: () => void = () => undefined;

const estimate = jobEstimate();

beforeAll(() => {
  bridge = fakeBridge(
    {
      'export.start': (input) => {
        exportStarts.push(input);
        return ok({ jobId: 'job-1', path: '/exports/Steel.csv', handle: `fh_${'s'.repeat(32)}` });
      },
      'library.findEquivalent': () => ok(null),
      'jobs.estimate': () => ok(estimate),
      'jobs.start': () => ok({ jobId: 'j1' }),
    },
    browserHostOver(() => lib),
  );
  setApi(bridge.api);
  disconnect = connectLibraryStore();
});
afterAll(() => disconnect());
beforeEach(() => {
  lib = fakeLibrary([]);
  exportStarts = [];
  useLibraryStore.getState().reset();
  useImportStore.getState().reset();
});
afterEach(cleanup);

/** Every kind of control Mantine offers, in one form that counts its submissions. */
function EveryControl({ disabled = false }: { disabled?: boolean }) {
  const keys = useEnterSubmits();
  const [runs, setRuns] = useState(0);
  const [list, setList] = useState<string | null>('csv');
  return (
    <form
      {...keys}
      onSubmit={(e) => {
        e.preventDefault();
        setRuns((n) => n + 1);
      }}
    >
      <TextInput label="Name" data-testid="text" />
      <Checkbox label="Summaries" data-testid="checkbox" />
      <Switch label="Overwrite" data-testid="switch" />
      <Radio.Group label="Format" defaultValue="csv">
        <Radio value="csv" label="CSV" data-testid="radio" />
      </Radio.Group>
      <SegmentedControl data-testid="segmented" data={['Shipments', 'Firms']} />
      <Select
        label="Format list"
        data-testid="select"
        data={['csv', 'xlsx']}
        value={list}
        onChange={setList}
      />
      <Textarea label="Notes" data-testid="textarea" />
      <Button variant="default" data-testid="other-button">
        Choose file…
      </Button>
      <Button type="submit" disabled={disabled} data-testid="submit">
        Run
      </Button>
      <output data-testid="runs">{runs}</output>
      <output data-testid="list">{list}</output>
    </form>
  );
}

describe('the rule every dialog shares (useEnterSubmits)', () => {
  const runs = () => Number(screen.getByTestId('runs').textContent);

  it('runs the form from a text field, a checkbox, a switch, a radio button, a segmented choice and a closed list', () => {
    render(<EveryControl />);
    const segment = screen.getByTestId('segmented').querySelector('input[type="radio"]')!;
    const controls = ['text', 'checkbox', 'switch', 'radio', 'select'].map((id) => screen.getByTestId(id));
    let expected = 0;
    for (const control of [...controls, segment]) {
      enter(control);
      expected += 1;
      expect(runs(), control.outerHTML.slice(0, 80)).toBe(expected);
    }
    // The closed list did not open on Enter (Space or ↓ open it).
    expect(screen.getByTestId('select').getAttribute('aria-expanded')).not.toBe('true');
  });

  it('leaves Enter to a textarea, a button and an open list (which picks its option), and to Shift+Enter', () => {
    render(<EveryControl />);
    enter(screen.getByTestId('textarea'));
    enter(screen.getByTestId('other-button'));
    enter(screen.getByTestId('checkbox'), { shiftKey: true });
    expect(runs()).toBe(0);

    const select = screen.getByTestId('select');
    fireEvent.keyDown(select, { key: 'ArrowDown', code: 'ArrowDown' });
    expect(select.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(select, { key: 'ArrowDown', code: 'ArrowDown' });
    enter(select);
    expect(screen.getByTestId('list').textContent).toBe('xlsx');
    expect(runs()).toBe(0);
  });

  it('does nothing while the primary action is disabled, as a browser does', () => {
    render(<EveryControl disabled />);
    enter(screen.getByTestId('checkbox'));
    enter(screen.getByTestId('text'));
    expect(runs()).toBe(0);
  });
});

describe('Export', () => {
  const source = { datasetId: 'ds-1', view: { columns: ['hsCode'], sortModel: [], quickFilter: 'steel' } };

  it('Enter on a format exports in that format', async () => {
    render(<ExportButton source={source} suggestedName="Steel" counts={{ viewRows: 12, storedRows: 300 }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-format-csv'));
    enter(screen.getByTestId('export-format-csv'));
    await waitFor(() => expect(exportStarts).toHaveLength(1));
    expect(exportStarts[0]).toMatchObject({ format: 'csv' });
    await waitFor(() =>
      expect(screen.getByTestId('export-dialog').getAttribute('data-step')).toBe('running'),
    );
  });

  it('Enter on the summary sheets checkbox and on the scope exports; on Choose file… it does not', async () => {
    render(<ExportButton source={source} suggestedName="Steel" counts={{ viewRows: 12, storedRows: 300 }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    enter(screen.getByTestId('export-choose'));
    expect(exportStarts).toHaveLength(0);

    fireEvent.click(screen.getByTestId('export-summaries'));
    enter(screen.getByTestId('export-summaries'));
    await waitFor(() => expect(exportStarts).toHaveLength(1));
    expect(exportStarts[0]).toMatchObject({ format: 'xlsx', summaries: true });

    cleanup();
    render(<ExportButton source={source} suggestedName="Steel" counts={{ viewRows: 12, storedRows: 300 }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-scope-view'));
    enter(screen.getByTestId('export-scope-view'));
    await waitFor(() => expect(exportStarts).toHaveLength(2));
    expect(exportStarts[1]).toMatchObject({ source });
  });

  it('Enter exports nothing when there is nothing to export', () => {
    render(<ExportButton source={{ datasetId: 'ds-1' }} counts={{ viewRows: 0, storedRows: 0 }} />);
    fireEvent.click(screen.getByTestId('export-open'));
    enter(screen.getByTestId('export-format-parquet'));
    expect(exportStarts).toHaveLength(0);
  });
});

describe('Import preview', () => {
  async function openDialog(): Promise<void> {
    lib.previewAnswer = (file) =>
      importPreview({
        fileName: file.fileName,
        format: 'xlsx',
        sheets: [
          { name: 'Data', rows: 2, hidden: false },
          { name: 'Notes', rows: 1, hidden: false },
        ],
      });
    lib.importAnswer = () => new Promise(() => undefined);
    render(<LibraryPage />);
    const input = await screen.findByTestId('library-import-input');
    fireEvent.change(input, { target: { files: [new File(['x'], 'desk.xlsx')] } });
    await screen.findByTestId('import-mapping');
    await waitFor(() =>
      expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(false),
    );
  }
  const imports = () => lib.callsTo('library.import');

  it('Enter on the Records choice imports the file', async () => {
    await openDialog();
    enter(within(screen.getByTestId('import-kind')).getByLabelText('Shipments'));
    await waitFor(() => expect(imports()).toHaveLength(1));
  });

  it('Enter on the closed Sheet list imports (it does not open the list); in the open list it picks a sheet', async () => {
    await openDialog();
    const sheet = screen.getByTestId('import-sheet');
    fireEvent.keyDown(sheet, { key: 'ArrowDown', code: 'ArrowDown' });
    expect(sheet.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(sheet, { key: 'ArrowDown', code: 'ArrowDown' });
    enter(sheet);
    // The open list took Enter: the second sheet is read, nothing is imported.
    await waitFor(() =>
      expect(lib.callsTo('library.previewImport').at(-1)).toMatchObject({ choices: { sheet: 1 } }),
    );
    expect(imports()).toHaveLength(0);
    await waitFor(() =>
      expect((screen.getByTestId('import-confirm') as HTMLButtonElement).disabled).toBe(false),
    );
    const closed = screen.getByTestId('import-sheet');
    expect(closed.getAttribute('aria-expanded')).not.toBe('true');
    enter(closed);
    await waitFor(() => expect(imports()).toHaveLength(1));
  });

  it('Enter on Cancel cancels, and imports nothing', async () => {
    await openDialog();
    enter(screen.getByTestId('import-cancel'));
    expect(imports()).toHaveLength(0);
  });
});

describe('Fetch all', () => {
  it('Enter in the name field starts the job', async () => {
    render(<FetchAllDialog />);
    await act(() => useJobsStore.getState().askFetchAll('shipments', { importer_countries: ['CA'] }, 600));
    enter(screen.getByTestId('fetch-all-cancel'));
    expect(bridge.callsTo('jobs.start')).toHaveLength(0);
    enter(screen.getByTestId('fetch-all-name'));
    await waitFor(() => expect(bridge.callsTo('jobs.start')).toHaveLength(1));
  });
});
