// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import { dataset as datasetView } from './fake-library';
import type { BridgeResult } from '@shared/ipc/errors';
import type { DatasetRow, DatasetView } from '@shared/library/library-contract';
import * as page from '../../src/renderer/src/features/library/library-page';
import * as store from '../../src/renderer/src/features/library/library-store';

/**
 * The Library page's open dataset: its grid's count reaches the Export dialog, which offers the view
 * or the whole dataset. The bridge is a stand-in that answers the calls the page makes.
 */
const STORED = 300;
const dataset: DatasetView = datasetView('ds-1', {
  name: 'Steel imports',
  request: {},
  profileId: null,
  profileName: 'Desk',
  fetchedAt: new Date().toISOString(),
  reportedTotal: STORED,
  storedRows: STORED,
});
const ROWS: DatasetRow[] = Array.from({ length: STORED }, (_, i) => ({
  _row: i,
  hashId: `h${i}`,
  importerName: i % 30 === 0 ? 'Steelworks Ltd' : `Importer ${i % 7}`,
}));
const starts: unknown[] = [];

function answer(channel: string, input: unknown): BridgeResult<unknown> {
  if (channel === 'library.list') return { ok: true, value: [dataset] };
  if (channel === 'library.get') return { ok: true, value: dataset };
  if (channel === 'jobs.list') return { ok: true, value: { running: [], resumable: [] } };
  if (channel === 'library.getRows') {
    const q = input as { startRow: number; endRow: number; quickFilter?: string };
    const rows = ROWS.filter(
      (r) => !q.quickFilter || String(r.importerName).toLowerCase().includes(q.quickFilter.toLowerCase()),
    );
    return { ok: true, value: { rows: rows.slice(q.startRow, q.endRow), lastRow: rows.length } };
  }
  if (channel === 'export.start') {
    starts.push((input as { source: unknown }).source);
    return {
      ok: true,
      value: { jobId: 'job-1', path: '/exports/Steel imports.xlsx', handle: `fh_${'e'.repeat(32)}` },
    };
  }
  return { ok: false, error: { kind: 'NotFound', message: `not in this test: ${channel}` } };
}

beforeAll(async () => {
  setApi(fakeBridge({}, { fallback: async (c, i) => answer(c, i) }).api);
}, 30_000);
afterEach(() => {
  cleanup();
  starts.length = 0;
});

async function openDataset(): Promise<void> {
  render(<page.LibraryPage />);
  await screen.findByTestId('library-row-ds-1', {}, { timeout: 10_000 });
  act(() => store.useLibraryStore.getState().openDataset('ds-1'));
  await waitFor(() => expect(screen.getByTestId('library-grid-count').textContent).toBe('300 rows'), {
    timeout: 10_000,
  });
}

const scopeText = (id: string) =>
  document.querySelector(`label[for="${screen.getByTestId(id).id}"]`)?.textContent?.trim();

describe('Library page → Export', () => {
  it('offers the whole dataset by default, with all its stored rows, and exports it without a view', async () => {
    await openDataset();
    fireEvent.click(screen.getByTestId('export-open'));
    expect(scopeText('export-scope-dataset')).toBe('Whole dataset — all fields, all 300 rows');
    expect(scopeText('export-scope-view')).toBe('This view — 16 columns, 300 rows');
    expect((screen.getByTestId('export-scope-dataset') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('export-row-count').textContent).toBe('300 rows will be exported.');
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() => expect(starts).toEqual([{ datasetId: 'ds-1' }]), { timeout: 10_000 });
  });

  it('after a quick filter, offers the view with the count the grid shows', async () => {
    await openDataset();
    fireEvent.change(screen.getByTestId('library-quick-filter'), { target: { value: 'steelworks' } });
    await waitFor(
      () => expect(screen.getByTestId('library-grid-count').textContent).toBe('10 of 300 rows match'),
      {
        timeout: 10_000,
      },
    );
    fireEvent.click(screen.getByTestId('export-open'));
    expect(scopeText('export-scope-view')).toBe('This view — 16 columns, 10 rows, with its filters');
    expect((screen.getByTestId('export-scope-view') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('export-row-count').textContent).toBe('10 rows will be exported.');
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() => expect(starts).toHaveLength(1), { timeout: 10_000 });
    expect(starts[0]).toMatchObject({ datasetId: 'ds-1', view: { quickFilter: 'steelworks' } });
  });
});

describe('Library page → Export, in the browser host', () => {
  const HOST_PATH = '/exports/Steel imports.xlsx';

  function exportThroughBrowser(): { bridge: ReturnType<typeof fakeBridge>; clicked: string[] } {
    const clicked: string[] = [];
    // A download is a click on a link to the file's URL: jsdom would try to navigate, so only the URL is kept.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      if (this.hasAttribute('download')) clicked.push(this.href);
    });
    const bridge = fakeBridge(
      {},
      {
        fallback: async (c, i) => answer(c, i),
        fileTransfer: {
          upload: async () => ({ ok: false, error: { kind: 'NotFound', message: 'no upload here' } }),
          downloadUrl: (handle) => `http://127.0.0.1:9/files/export/${handle}`,
        },
      },
    );
    setApi(bridge.api);
    return { bridge, clicked };
  }

  afterEach(() => {
    vi.restoreAllMocks();
    setApi(fakeBridge({}, { fallback: async (c, i) => answer(c, i) }).api);
  });

  it('says the file was downloaded by its name, hands it to the browser, and never shows the host path', async () => {
    const { bridge, clicked } = exportThroughBrowser();
    await openDataset();
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() => expect(screen.getByTestId('export-dialog').dataset.step).toBe('running'), {
      timeout: 10_000,
    });
    expect(screen.getByTestId('export-running-path').textContent).toBe('Steel imports.xlsx');
    act(() =>
      bridge.emit('jobs.finished', {
        kind: 'export',
        jobId: 'job-1',
        outcome: 'succeeded',
        message: 'Exported 300 rows; your browser downloaded the file as Steel imports.xlsx',
      }),
    );
    const done = await screen.findByTestId('export-done');
    expect(done.dataset.outcome).toBe('succeeded');
    expect(done.textContent).toContain('your browser downloaded the file as Steel imports.xlsx');
    expect(done.textContent).not.toContain(HOST_PATH);
    expect(screen.queryByTestId('export-done-path')).toBeNull();
    // The browser got the file at once; the link fetches it again.
    expect(clicked).toEqual([`http://127.0.0.1:9/files/export/fh_${'e'.repeat(32)}`]);
    expect(screen.getByTestId('export-download').textContent).toBe('Download Steel imports.xlsx again');
  });

  it('in the desktop app, names the path the file was saved to', async () => {
    const bridge = fakeBridge({}, { fallback: async (c, i) => answer(c, i) });
    setApi(bridge.api);
    await openDataset();
    fireEvent.click(screen.getByTestId('export-open'));
    fireEvent.click(screen.getByTestId('export-start'));
    await waitFor(() => expect(screen.getByTestId('export-dialog').dataset.step).toBe('running'), {
      timeout: 10_000,
    });
    act(() =>
      bridge.emit('jobs.finished', {
        kind: 'export',
        jobId: 'job-1',
        outcome: 'succeeded',
        message: `Exported 300 rows to ${HOST_PATH}`,
      }),
    );
    await screen.findByTestId('export-done');
    expect(screen.getByTestId('export-done-path').textContent).toBe(HOST_PATH);
    expect(screen.queryByTestId('export-download')).toBeNull();
  });
});
