// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from './render';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setApi } from '../../src/renderer/src/bridge/api';
import { fakeBridge } from './fake-bridge';
import type { PageBackend } from '../analysis/page-backend-contract';
import * as app from '../../src/renderer/src/session/session-store';
import * as page from '../../src/renderer/src/features/analysis/analysis-page';
import * as store from '../../src/renderer/src/features/analysis/analysis-store';
import * as drill from '../../src/renderer/src/session/drill-store';

/**
 * The Analysis page over the real analysis handlers (DuckDB library with simulator records), reached
 * through the real dispatcher in process. The backend module is loaded by path so this DOM-typed
 * file does not pull main-process types into the renderer's type check.
 */
type Rec = Record<string, string>;
let backend: PageBackend;
const useStore = () => store.useAnalysisStore.getState();
const downloads: { name: string; href: string }[] = [];

beforeAll(async () => {
  const backendPath = new URL('../analysis/page-backend.ts', import.meta.url).pathname;
  const mod = (await import(/* @vite-ignore */ backendPath)) as { startPageBackend(): Promise<PageBackend> };
  backend = await mod.startPageBackend();
  setApi(fakeBridge({}, { fallback: (c, i) => backend.invoke(c, i), checkInputs: false }).api);
  // jsdom has no canvas (it returns null and logs "not implemented" on every text measure): say so quietly.
  HTMLCanvasElement.prototype.getContext = () => null;
  // jsdom cannot save files: record what the download link would have saved.
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    downloads.push({ name: this.download, href: this.href });
  };
}, 60_000);
afterEach(() => {
  cleanup();
  // The tab is kept while the analyst works (a store field); each test starts on the first one.
  useStore().setTab('importers');
});

/** Opens one tab of the page: only the open tab's summaries are drawn. */
function showTab(tab: store.AnalysisTab): void {
  act(() => {
    fireEvent.click(screen.getByTestId(`analysis-tab-${tab}`));
  });
}
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
    // DuckDB answers slowly on a loaded machine: wait for the conditions, long enough for that.
    await waitFor(() => expect(select.options.length).toBe(4), { timeout: 45_000 });
    act(() => {
      fireEvent.change(select, { target: { value: backend.ids.before } });
    });
    const [topCode, topCount] = topBy(backend.before, 'importerUrlCode');
    const row = await screen.findByTestId('analysis-row-importers-0', {}, { timeout: 45_000 });
    await waitFor(
      () => expect(screen.getByTestId('analysis-row-importers-0').getAttribute('data-key')).toBe(topCode),
      { timeout: 45_000 },
    );
    expect(row.textContent).toContain(String(topCount));
    expect(screen.getByTestId('analysis-total-importers').textContent).toContain('600 shipments');
    // The charts rendered (SVG here: jsdom has no canvas).
    expect(screen.getByTestId('analysis-chart-importers').querySelector('svg')).not.toBeNull();
    // One summary per tab: the HS tab draws the HS chart and no longer the importers'.
    showTab('hs');
    expect(screen.getByTestId('analysis-chart-hs').querySelector('svg')).not.toBeNull();
    expect(screen.queryByTestId('analysis-chart-importers')).toBeNull();
    showTab('importers');

    fireEvent.click(screen.getByTestId('analysis-row-importers-0'));
    expect(drill.useDrillStore.getState().pending).toMatchObject({
      datasetId: backend.ids.before,
      filterModel: { importerUrlCode: { filterType: 'text', type: 'equals', filter: topCode } },
    });
    expect(app.useSessionStore.getState().page).toBe('library');
    expect(drill.useDrillStore.getState().take()).not.toBeNull();
    expect(drill.useDrillStore.getState().pending).toBeNull();
  }, 120_000);

  it('exports a table to Excel, opens a firm profile and compares two snapshots', async () => {
    render(<page.AnalysisPage />);
    await screen.findByTestId('analysis-row-importers-0', {}, { timeout: 45_000 });

    fireEvent.click(screen.getByTestId('analysis-xlsx-importers'));
    await waitFor(() => expect(downloads.length).toBe(1), { timeout: 45_000 });
    expect(downloads[0]!.name).toBe('Top importers - Before.xlsx');
    const base64 = downloads[0]!.href.split(',')[1]!;
    expect(atob(base64).slice(0, 2)).toBe('PK');

    fireEvent.click(screen.getByTestId('analysis-profile-importers-0'));
    const summary = await screen.findByTestId('analysis-profile-summary', {}, { timeout: 45_000 });
    const code = screen.getByTestId('analysis-row-importers-0').getAttribute('data-key')!;
    const asImporter = backend.before.filter((r) => r.importerUrlCode === code).length;
    expect(summary.textContent).toContain(`As importer: ${asImporter} shipments`);
    fireEvent.click(screen.getByRole('button', { name: 'Close the profile' }));
    await waitFor(() => expect(screen.queryByTestId('analysis-profile-summary')).toBeNull());
    expect(useStore().profile.value).toBeNull();

    showTab('compare');
    fireEvent.change(screen.getByTestId('analysis-diff-compare'), { target: { value: backend.ids.after } });
    fireEvent.click(screen.getByTestId('analysis-diff-run'));
    const counts = await screen.findByTestId('analysis-diff-counts', {}, { timeout: 45_000 });
    const a = new Set(backend.before.map((r) => r.importerUrlCode));
    const b = new Set(backend.after.map((r) => r.importerUrlCode));
    const lost = [...a].filter((c) => !b.has(c)).length;
    const added = [...b].filter((c) => !a.has(c)).length;
    const kept = [...a].filter((c) => b.has(c)).length;
    expect(counts.textContent).toBe(`${added} new · ${lost} lost · ${kept} in both`);
    // Two whole answers to the same query: no warning above the counts.
    expect(screen.queryByTestId('analysis-diff-warning')).toBeNull();
  }, 120_000);

  it('opens HS headings to their subheadings, the way chapters open to headings', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.before);
    showTab('hs');
    const table = await screen.findByTestId('analysis-table-hs', {}, { timeout: 45_000 });
    const keys = () => [...table.querySelectorAll('tbody tr')].map((tr) => tr.getAttribute('data-key') ?? '');
    // A heading with more than one subheading, from the records themselves.
    const subs = new Map<string, Set<string>>();
    for (const r of backend.before) {
      const dg = r.hsCode!.replace(/\D/g, '');
      if (dg.length < 6) continue;
      const set = subs.get(dg.slice(0, 4)) ?? new Set<string>();
      set.add(dg.slice(0, 6));
      subs.set(dg.slice(0, 4), set);
    }
    const [heading, expected] = [...subs.entries()].find(([, v]) => v.size > 1)!;
    const chapter = heading.slice(0, 2);
    expect(keys().some((k) => k.length === 6)).toBe(false);

    fireEvent.click(screen.getByTestId(`analysis-hs-toggle-${chapter}`));
    const headingToggle = await screen.findByTestId(`analysis-hs-toggle-${heading}`);
    expect(headingToggle.getAttribute('aria-expanded')).toBe('false');
    expect(keys().some((k) => k.length === 6)).toBe(false);

    fireEvent.click(headingToggle);
    expect(headingToggle.getAttribute('aria-expanded')).toBe('true');
    const shown = keys().filter((k) => k.length === 6);
    expect(new Set(shown)).toEqual(expected);
    // The subheadings follow their heading, before the next heading.
    const at = keys().indexOf(heading);
    expect(
      keys()
        .slice(at + 1, at + 1 + shown.length)
        .sort(),
    ).toEqual([...expected].sort());
    // A subheading row drills into the grid by its 6-digit prefix.
    const sub = table.querySelector(`tr[data-key="${shown[0]}"]`)!;
    fireEvent.click(sub);
    expect(JSON.stringify(drill.useDrillStore.getState().take()?.filterModel)).toContain(shown[0]!);

    // Closing the chapter hides its subheadings as well as its headings.
    fireEvent.click(screen.getByTestId(`analysis-hs-toggle-${chapter}`));
    expect(keys().some((k) => k.startsWith(heading))).toBe(false);
  });

  it('cuts a 300-character firm name with the whole name in a tooltip, figures staying in the row', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.single);
    const name = await screen.findByTestId('analysis-name-importers-0', {}, { timeout: 45_000 });
    expect(backend.single.importerName!.length).toBe(300);
    // The cell's class carries the ellipsis rule (checked against analysis.css in charts.test.ts).
    expect(name.classList.contains('analysis__name')).toBe(true);
    expect(name.getAttribute('title')).toBe(
      `${backend.single.importerName} ${backend.single.importerCountryCode}`,
    );
    expect(name.closest('.analysis__table-wrap')).not.toBeNull();
    const row = screen.getByTestId('analysis-row-importers-0');
    expect(row.querySelectorAll('td')).toHaveLength(7);
    expect(screen.getByTestId('analysis-profile-importers-0')).toBeTruthy();
  });

  it('says "1 shipment" and "1 row", and counts tick in whole numbers', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.single);
    const total = await screen.findByTestId('analysis-total-importers', {}, { timeout: 45_000 });
    expect(total.textContent).toBe('1 shipment');
    const select = screen.getByTestId('analysis-dataset') as HTMLSelectElement;
    const option = [...select.options].find((o) => o.value === backend.ids.single)!;
    expect(option.textContent).toBe('Single (1 row)');
    expect([...select.options].find((o) => o.value === backend.ids.before)!.textContent).toBe(
      'Before (600 rows)',
    );
    // The rendered axis of the one-shipment bar: 0 and 1, no 0.2 … 0.8 in between.
    const chart = screen.getByTestId('analysis-chart-importers');
    await waitFor(() => expect(chart.querySelectorAll('text').length).toBeGreaterThan(0));
    const ticks = [...chart.querySelectorAll('text')]
      .map((t) => t.textContent ?? '')
      .filter((t) => /^\d+(\.\d+)?$/.test(t));
    expect(ticks).toContain('1');
    expect(ticks.filter((t) => t.includes('.'))).toEqual([]);
  });

  it('names months as analysts write them ("Dec 2025") in the trend table and a profile, in calendar order; the Excel keeps "2025-12"', async () => {
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const written = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${iso.slice(0, 4)}`;
    const isoMonths = [...new Set(backend.before.map((r) => (r.arrivalDate ?? '').slice(0, 7)))]
      .filter((m) => /^\d{4}-\d{2}$/.test(m))
      .sort();
    expect(isoMonths.length).toBeGreaterThan(1);
    render(<page.AnalysisPage />);
    await choose(backend.ids.before);
    showTab('months');
    const table = await screen.findByTestId('analysis-table-months', {}, { timeout: 45_000 });
    const rows = [...table.querySelectorAll('tbody tr')].filter((tr) => tr.getAttribute('data-key'));
    expect(rows.map((tr) => tr.getAttribute('data-key'))).toEqual(isoMonths);
    const names = rows.map((_, i) => screen.getByTestId(`analysis-name-months-${i}`));
    expect(names.map((n) => n.textContent)).toEqual(isoMonths.map(written));
    expect(names.map((n) => n.getAttribute('title'))).toEqual(isoMonths.map(written));

    downloads.length = 0;
    fireEvent.click(screen.getByTestId('analysis-xlsx-months'));
    await waitFor(() => expect(downloads.length).toBe(1), { timeout: 45_000 });
    const xlsx = await backend.readXlsx(downloads[0]!.href.split(',')[1]!);
    const [, ...sheetRows] = xlsx.rows;
    expect(sheetRows.map((r) => r[0]).filter((v) => /^\d{4}-\d{2}$/.test(String(v)))).toEqual(isoMonths);

    showTab('importers');
    fireEvent.click(await screen.findByTestId('analysis-profile-importers-0', {}, { timeout: 45_000 }));
    const monthly = await screen.findByTestId('analysis-profile-months-0', {}, { timeout: 45_000 });
    expect(monthly.textContent).toMatch(/^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}/);
    fireEvent.click(screen.getByRole('button', { name: 'Close the profile' }));
    await waitFor(() => expect(screen.queryByTestId('analysis-profile-summary')).toBeNull());
  }, 120_000);

  it('shows one message and no sections or exports for a dataset without shipments', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.empty);
    const note = await screen.findByTestId('analysis-dataset-empty');
    expect(note.textContent).toContain('This dataset has no shipments to analyse');
    expect(document.querySelectorAll('[data-testid^="analysis-section-"]')).toHaveLength(0);
    expect(document.querySelectorAll('[data-testid^="analysis-xlsx-"]')).toHaveLength(0);
    expect(document.querySelectorAll('[data-testid^="analysis-png-"]')).toHaveLength(0);
    expect(screen.queryByTestId('analysis-diff')).toBeNull();
    // Another dataset brings the summaries back.
    await choose(backend.ids.single);
    await screen.findByTestId('analysis-total-importers', {}, { timeout: 45_000 });
    expect(screen.queryByTestId('analysis-dataset-empty')).toBeNull();
  });

  it('exports every importer, not only the rows shown, in a file named by table and dataset', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.before);
    const note = await screen.findByTestId('analysis-total-importers', {}, { timeout: 45_000 });
    const importers = new Set(backend.before.map((r) => r.importerUrlCode));
    expect(note.textContent).toContain(`${importers.size - 15} more not shown`);
    downloads.length = 0;
    fireEvent.click(screen.getByTestId('analysis-xlsx-importers'));
    await waitFor(() => expect(downloads.length).toBe(1), { timeout: 45_000 });
    expect(downloads[0]!.name).toBe('Top importers - Before.xlsx');
    const xlsx = await backend.readXlsx(downloads[0]!.href.split(',')[1]!);
    expect(xlsx.subject).toBe('Before');
    const [header, ...rows] = xlsx.rows;
    expect(header![1]).toBe('Key');
    expect(new Set(rows.map((r) => r[1]))).toEqual(importers);
    expect(rows.reduce((s, r) => s + Number(r[3]), 0)).toBe(600);

    // The same table of another dataset is another file.
    await choose(backend.ids.after);
    await waitFor(() => expect(useStore().summaries.importers?.value?.datasetId).toBe(backend.ids.after));
    fireEvent.click(screen.getByTestId('analysis-xlsx-importers'));
    await waitFor(() => expect(downloads.length).toBe(2));
    expect(downloads[1]!.name).toBe('Top importers - After.xlsx');
  });

  it('counts firms resolved: every spelling of a firm as one, its profile and drill-downs over all its spellings', async () => {
    render(<page.AnalysisPage />);
    await choose(backend.ids.before);
    const asWritten = useStore().summaries.importers!.value!;
    act(() => {
      fireEvent.click(screen.getByLabelText('Resolved'));
    });
    await waitFor(
      () => {
        const importers = useStore().summaries.importers;
        expect(importers?.loading).toBe(false);
        expect(importers?.value?.firms).toBe('resolved');
      },
      { timeout: 45_000 },
    );
    const resolved = useStore().summaries.importers!.value!;
    expect(resolved.totals.shipments).toBe(600);
    expect(resolved.rows.length + resolved.omittedGroups).toBeLessThan(
      asWritten.rows.length + asWritten.omittedGroups,
    );
    // Rows name resolved firms, not firm codes; a click opens every spelling's rows.
    const key = screen.getByTestId('analysis-row-importers-0').getAttribute('data-key')!;
    expect(backend.before.some((r) => r.importerUrlCode === key)).toBe(false);
    fireEvent.click(screen.getByTestId('analysis-row-importers-0'));
    expect(drill.useDrillStore.getState().take()?.filterModel).toEqual({
      importerFirm: { filterType: 'firm', firmId: key },
    });
    // A firm written more than one way says so in its row.
    const many = resolved.rows.findIndex((r) => (r.spellings ?? 0) > 1);
    expect(many).toBeGreaterThanOrEqual(0);
    expect(screen.getByTestId(`analysis-spellings-importers-${many}`).textContent).toContain(
      `written ${resolved.rows[many]!.spellings} ways`,
    );

    fireEvent.click(screen.getByTestId(`analysis-profile-importers-${many}`));
    const spellings = await screen.findByTestId('analysis-profile-spellings', {}, { timeout: 45_000 });
    const profile = useStore().profile.value!;
    expect(profile.firmId).toBe(resolved.rows[many]!.key);
    expect(spellings.textContent).toContain(profile.spellings.join(' · '));
    fireEvent.click(screen.getByTestId('analysis-profile-all-rows'));
    expect(drill.useDrillStore.getState().take()?.filterModel).toEqual({
      anyFirm: { filterType: 'firm', firmId: profile.firmId },
    });

    // Back to firms as written: firm codes again, and the profile closes.
    act(() => {
      fireEvent.click(screen.getByLabelText('As written'));
    });
    expect(useStore().profile.value).toBeNull();
    await waitFor(() => expect(useStore().summaries.importers?.value?.firms).toBe('asWritten'), {
      timeout: 45_000,
    });
  }, 120_000);
});

/** Chooses a dataset in the page's list and waits until its summaries are in (or it has none). */
async function choose(id: string): Promise<void> {
  const select = (await screen.findByTestId('analysis-dataset')) as HTMLSelectElement;
  await waitFor(() => expect(select.options.length).toBe(4));
  act(() => {
    fireEvent.change(select, { target: { value: id } });
  });
  await waitFor(
    () => {
      const s = useStore();
      expect(s.datasetId).toBe(id);
      expect(Object.values(s.summaries).every((slot) => slot && !slot.loading)).toBe(true);
    },
    { timeout: 45_000 },
  );
}
