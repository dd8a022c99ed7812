// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { BridgeResult } from '@shared/ipc/errors';
import type { DatasetRow, DatasetView } from '@shared/library/library-contract';
import * as page from '../../src/renderer/src/features/library/library-page';
import * as store from '../../src/renderer/src/features/library/library-store';

/**
 * The Library page's open dataset: its grid's count reaches the Export dialog, which offers the view
 * or the whole dataset. The bridge is a stand-in that answers the calls the page makes.
 */
const STORED = 300;
const dataset: DatasetView = {
  id: 'ds-1',
  name: 'Steel imports',
  kind: 'shipments',
  request: {},
  profileId: null,
  profileName: 'Desk',
  account: null,
  fetchedAt: new Date().toISOString(),
  reportedTotal: STORED,
  storedRows: STORED,
  notes: '',
  tags: [],
  status: 'complete',
  windows: null,
  reported: null,
  source: 'fetch',
};
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
