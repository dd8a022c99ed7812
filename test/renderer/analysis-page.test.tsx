// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '@shared/ipc/build-api';
import { CALL_CHANNELS } from '@shared/ipc/channels';
import type { BridgeResult } from '@shared/ipc/errors';
// Type-only: erased, so nothing of the page is evaluated before window.portolan is set.
import type * as AppStoreModule from '../../src/renderer/src/app/app-store';
import type * as PageModule from '../../src/renderer/src/features/analysis/analysis-page';
import type * as DrillModule from '../../src/renderer/src/features/analysis/drill-store';

/**
 * The Analysis page over the real analysis services (DuckDB library with simulator records), reached
 * through the real dispatcher in process. The backend module is loaded by path so this DOM-typed
 * file does not pull main-process types into the renderer's type check.
 */
type Rec = Record<string, string>;
interface PageBackend {
  invoke(channel: string, input: unknown): Promise<BridgeResult<unknown>>;
  ids: { before: string; after: string };
  before: Rec[];
  after: Rec[];
  close(): Promise<void>;
}

let backend: PageBackend;
let page: typeof PageModule;
let drill: typeof DrillModule;
let app: typeof AppStoreModule;
const downloads: { name: string; href: string }[] = [];

beforeAll(async () => {
  const backendPath = new URL('../analysis/page-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as { startPageBackend(): Promise<PageBackend> };
  backend = await mod.startPageBackend();
  window.portolan = buildApi(CALL_CHANNELS, {
    invoke: (c, i) => backend.invoke(c, i),
    subscribe: () => () => undefined,
  });
  // The bridge module reads window.portolan when first imported, so the page is imported after it is set.
  page = await import('../../src/renderer/src/features/analysis/analysis-page');
  drill = await import('../../src/renderer/src/features/analysis/drill-store');
  app = await import('../../src/renderer/src/app/app-store');
  // jsdom has no canvas (it returns null and logs "not implemented" on every text measure): say so quietly.
  HTMLCanvasElement.prototype.getContext = () => null;
  // jsdom cannot save files: record what the download link would have saved.
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.href });
  };
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  await backend?.close();
});

function topBy(records: readonly Rec[], field: string): [string, number] {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r[field]!, (counts.get(r[field]!) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
}

describe('analysis page', () => {
  it('shows the summaries of the chosen dataset; a row click drills into the library grid', async () => {
    render(<page.AnalysisPage />);
    const select = (await screen.findByTestId('analysis-dataset')) as HTMLSelectElement;
    await waitFor(() => expect(select.options.length).toBe(2));
    act(() => {
      fireEvent.change(select, { target: { value: backend.ids.before } });
    });
    const [topCode, topCount] = topBy(backend.before, 'importerUrlCode');
    const row = await screen.findByTestId('analysis-row-importers-0', {}, { timeout: 10_000 });
    await waitFor(() =>
      expect(screen.getByTestId('analysis-row-importers-0').getAttribute('data-key')).toBe(topCode),
    );
    expect(row.textContent).toContain(String(topCount));
    expect(screen.getByTestId('analysis-total-importers').textContent).toContain('600 shipments');
    // The charts rendered (SVG here: jsdom has no canvas).
    expect(screen.getByTestId('analysis-chart-importers').querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('analysis-chart-hs').querySelector('svg')).not.toBeNull();

    fireEvent.click(screen.getByTestId('analysis-row-importers-0'));
    expect(drill.useDrillStore.getState().pending).toMatchObject({
      datasetId: backend.ids.before,
      filterModel: { importerUrlCode: { filterType: 'text', type: 'equals', filter: topCode } },
    });
    expect(app.useAppStore.getState().page).toBe('library');
    expect(drill.useDrillStore.getState().take()).not.toBeNull();
    expect(drill.useDrillStore.getState().pending).toBeNull();
  });

  it('exports a table to Excel, opens a firm profile and compares two snapshots', async () => {
    render(<page.AnalysisPage />);
    await screen.findByTestId('analysis-row-importers-0', {}, { timeout: 10_000 });

    fireEvent.click(screen.getByTestId('analysis-xlsx-importers'));
    await waitFor(() => expect(downloads.length).toBe(1));
    expect(downloads[0]!.name).toBe('Top importers.xlsx');
    const base64 = downloads[0]!.href.split(',')[1]!;
    expect(atob(base64).slice(0, 2)).toBe('PK');

    fireEvent.click(screen.getByTestId('analysis-profile-importers-0'));
    const summary = await screen.findByTestId('analysis-profile-summary', {}, { timeout: 10_000 });
    const code = screen.getByTestId('analysis-row-importers-0').getAttribute('data-key')!;
    const asImporter = backend.before.filter((r) => r.importerUrlCode === code).length;
    expect(summary.textContent).toContain(`As importer: ${asImporter} shipments`);

    fireEvent.change(screen.getByTestId('analysis-diff-compare'), { target: { value: backend.ids.after } });
    fireEvent.click(screen.getByTestId('analysis-diff-run'));
    const counts = await screen.findByTestId('analysis-diff-counts', {}, { timeout: 10_000 });
    const a = new Set(backend.before.map((r) => r.importerUrlCode));
    const b = new Set(backend.after.map((r) => r.importerUrlCode));
    const lost = [...a].filter((c) => !b.has(c)).length;
    const added = [...b].filter((c) => !a.has(c)).length;
    const kept = [...a].filter((c) => b.has(c)).length;
    expect(counts.textContent).toBe(`${added} new · ${lost} lost · ${kept} in both`);
  });
});
