import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { ShipmentRecord } from '@shared/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPage, type ShownRow } from './pages/analysis-page';
import type { AppShell } from './pages/app-shell';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { ARTIFACTS_DIR } from './support/paths';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const RECORDS = 3_000;
/** The project's independent reader of .xlsx files (openpyxl), as the export round-trip tests use it. */
const XLSX_READER = join(import.meta.dirname, '..', 'export', 'readers', 'xlsx_cells.py');
/** The page asks for this many groups per firm / port summary. */
const TOP = 15;

interface Group {
  key: string;
  name: string;
  shipments: number;
  usdFob: number;
}

/** Groups the simulator's own records with plain code: the expected answers, independent of the app's SQL. */
function groupBy(
  records: readonly ShipmentRecord[],
  key: (r: ShipmentRecord) => string,
  name = key,
): Map<string, Group> {
  const out = new Map<string, Group>();
  for (const r of records) {
    const k = key(r);
    const g = out.get(k) ?? { key: k, name: name(r), shipments: 0, usdFob: 0 };
    g.shipments += 1;
    g.usdFob += Number(r.usdFob);
    out.set(k, g);
  }
  return out;
}

/** Largest first, ties by key: how the summaries order groups by shipments. */
const top = (groups: Map<string, Group>, n: number): Group[] =>
  [...groups.values()]
    .sort((a, b) => b.shipments - a.shipments || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, n);

const shown = (rows: ShownRow[]) => rows.map((r) => ({ key: r.key, shipments: r.shipments }));
const expected = (groups: Group[]) => groups.map((g) => ({ key: g.key, shipments: g.shipments }));

describe('Analysis: summaries of a library dataset, drill-down into the grid, exports, profile, diff', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let library: LibraryPage;
  let analysis: AnalysisPage;
  let records: ShipmentRecord[];
  let importers: Map<string, Group>;
  let allId: string;
  let usId: string;
  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    records = [...stack.sim.dataset.records()];
    importers = groupBy(
      records,
      (r) => r.importerUrlCode,
      (r) => r.importerName,
    );
    browser = await launchBrowser();
    library = new LibraryPage(browser.page);
    analysis = new AnalysisPage(browser.page);
    shell = await openConnected(browser, stack);

    // Two searches land in the library: every record, then the US importers' records only.
    const search = new SearchWorkbench(browser.page);
    await shell.navigate('search');
    await search.setSize(RECORDS);
    await search.run();
    expect(await search.shownAndTotal()).toEqual({ shown: RECORDS, total: RECORDS });
    const usRecords = records.filter((r) => r.importerCountryCode === 'US').length;
    expect(usRecords).toBeGreaterThan(0);
    await search.pickCountry('importer_countries', 'united states', 'US');
    await search.runButton.click();
    // The summary of the first search is still on screen until the new answer replaces it.
    await browser.page
      .locator(`[data-testid="search-summary"][data-total="${usRecords}"]`)
      .waitFor({ timeout: 30_000 });
    expect(await search.shownAndTotal()).toEqual({ shown: usRecords, total: usRecords });

    await analysis.open();
    const options = await analysis.datasets(2);
    const byRows = (n: number) =>
      options.find((o) => o.text.endsWith(`(${n.toLocaleString('en-US')} rows)`))?.id;
    allId = byRows(RECORDS) ?? '';
    usId = byRows(usRecords) ?? '';
    expect(options).toHaveLength(2);
    expect(allId).not.toBe('');
    expect(usId).not.toBe('');
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  it('shows every summary with the numbers of the simulator’s own data', async () => {
    await analysis.choose(allId);
    await browser.screenshot('analysis-summaries');

    expect(await analysis.totalText('importers')).toMatch(/^3,000 shipments/);
    const topImporters = top(importers, TOP);
    const importerRows = await analysis.rows('importers');
    expect(shown(importerRows)).toEqual(expected(topImporters));
    expect(importerRows[0]!.label).toBe(topImporters[0]!.name);
    expect(importerRows[0]!.usdFob).toBeCloseTo(topImporters[0]!.usdFob, 1);

    const exporters = groupBy(records, (r) => r.exporterUrlCode);
    expect(shown(await analysis.rows('exporters'))).toEqual(expected(top(exporters, TOP)));

    const months = groupBy(records, (r) => r.arrivalDate.slice(0, 7));
    // Every month of the trend, oldest first (not only the first page of them).
    expect(shown(await analysis.rows('months'))).toEqual(
      expected([...months.values()].sort((a, b) => (a.key < b.key ? -1 : 1))),
    );

    // Every HS chapter; a chapter opens to its headings.
    const digits = (r: ShipmentRecord) => r.hsCode.replace(/\D/g, '');
    const chapters = groupBy(records, (r) => digits(r).slice(0, 2));
    const byKey = (a: Group, b: Group) => (a.key < b.key ? -1 : 1);
    expect(shown(await analysis.rows('hs'))).toEqual(expected([...chapters.values()].sort(byKey)));
    const chapter = top(chapters, 1)[0]!.key;
    await analysis.toggleHsChapter(chapter);
    const headings = groupBy(
      records.filter((r) => digits(r).startsWith(chapter)),
      (r) => digits(r).slice(0, 4),
    );
    const hsRows = await analysis.rows('hs');
    expect(shown(hsRows.filter((r) => r.key.length === 4))).toEqual(
      expected([...headings.values()].sort(byKey)),
    );
    expect(hsRows.filter((r) => r.key.length === 2)).toHaveLength(chapters.size);
    for (const kind of ['months', 'hs', 'flows', 'arrivalPorts'] as const)
      await analysis.screenshotSection(kind);
    await analysis.toggleHsChapter(chapter);
    expect(await analysis.rows('hs')).toHaveLength(chapters.size);

    const flows = groupBy(records, (r) => `${r.exporterCountryCode}→${r.importerCountryCode}`);
    expect(shown(await analysis.rows('flows'))).toEqual(expected(top(flows, 40)));

    const arrival = groupBy(records, (r) => r.portOfArrival);
    expect(shown(await analysis.rows('arrivalPorts'))).toEqual(expected(top(arrival, TOP)));
    const departure = groupBy(records, (r) => r.portOfDeparture);
    expect(shown(await analysis.rows('departurePorts'))).toEqual(expected(top(departure, TOP)));
  });

  /** Waits for the Library's grid filtered by the drill; checks its rows against the importer. */
  async function expectImporterGrid(importer: Group): Promise<void> {
    await browser.page.getByTestId('library-drill-label').filter({ hasText: importer.name }).waitFor();
    expect(await shell.currentPage()).toBe('library');
    expect(await library.waitForRows()).toBe(importer.shipments);
    const names = await library.columnValues('importerName', Math.min(importer.shipments, 10));
    expect(new Set(names)).toEqual(new Set([importer.name]));
  }

  it('a click on a bar of the top-importers chart opens exactly that importer’s shipments', async () => {
    const third = top(importers, TOP)[2]!;
    await analysis.clickBar('importers', 2);
    await expectImporterGrid(third);
    await browser.screenshot('analysis-drill-bar');
  });

  it('a click on a summary table row opens the same drill-down', async () => {
    await analysis.open();
    await analysis.waitForSummaries();
    const first = top(importers, TOP)[0]!;
    await analysis.showTab('importers');
    await analysis.row('importers', 0).click();
    await expectImporterGrid(first);
  });

  it('exports a chart as PNG and a summary table to Excel', async () => {
    await analysis.open();
    await analysis.waitForSummaries();
    const png = await analysis.downloadPng('importers');
    expect(png.name).toBe('Top importers.png');
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    const xlsx = await analysis.downloadXlsx('arrivalPorts');
    // Named by table and dataset ("Shipments · all"), so exports of two datasets do not collide.
    expect(xlsx.name).toBe('Arrival ports - Shipments all.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const shownRows = await analysis.rows('arrivalPorts');
    // Every port, not only the rows shown: the section says how many more there are.
    const note = (await analysis.page.getByTestId('analysis-total-arrivalPorts').textContent()) ?? '';
    const more = Number(/([\d,]+) more not shown/.exec(note)?.[1]?.replace(/,/g, '') ?? '0');
    expect(more).toBeGreaterThan(0);
    expect(ws.actualRowCount).toBe(shownRows.length + more + 1);
    expect(ws.getRow(1).getCell(1).value).toBe('Name');
    expect(ws.getRow(2).getCell(1).value).toBe(shownRows[0]!.label);
    expect(ws.getRow(2).getCell(4).value).toBe(shownRows[0]!.shipments);
  });

  it('exports the unit values view to Excel: every cell the view shows, every group, the outlier flag as its quartiles say', async () => {
    await analysis.open();
    await analysis.choose(allId);
    const shown = await analysis.unitValueRows();
    const summary = (await analysis.page.getByTestId('unit-values-summary').innerText()).replace(/,/g, '');
    const [, flagged, groups] = /^(\d+) of (\d+) groups flagged/.exec(summary) ?? [];
    expect(Number(groups)).toBeGreaterThan(0);
    expect(shown.length).toBe(Math.min(300, Number(groups)));
    expect(shown.some((r) => r[6] === 'Low' || r[6] === 'High')).toBe(true);

    const file = await analysis.downloadUnitValues('unit-values.xlsx');
    expect(file.name).toBe('Unit values - Shipments all.xlsx');
    // Read by openpyxl, independently of the app's code: each cell's type and the text its format gives.
    const read = execFileSync('/usr/bin/python3', [XLSX_READER, file.path], { maxBuffer: 64 << 20 });
    const sheets = JSON.parse(read.toString('utf8')) as Record<string, { t: string; text: string }[][]>;
    const sheet = sheets['Unit values']!;
    const header = sheet[0]!.map((c) => c.text);
    expect(header).toEqual([
      'HS code',
      'HS description',
      'Importer',
      'Importer code',
      'From',
      'Shipments',
      'USD FOB',
      'Gross weight (kg)',
      'USD per kg',
      'HS median USD per kg',
      'HS Q1',
      'HS Q3',
      'HS shipments',
      'Outlier',
      'Low shipments',
      'High shipments',
    ]);
    const col = (name: string) => header.indexOf(name);
    // Every group, then one blank row and the note.
    const data = sheet.slice(1, 1 + Number(groups));
    expect(sheet[1 + Number(groups)]!.every((c) => c.t === 'empty')).toBe(true);
    expect(sheet[2 + Number(groups)]![0]!.text).toMatch(/^USD FOB per kg of gross weight/);
    expect(data.filter((r) => r[col('Outlier')]!.text !== '')).toHaveLength(Number(flagged));

    const num = (s: string): number => Number(s.replace(/,/g, ''));
    const dash = (s: string): string => (s === '' ? '—' : s);
    shown.forEach((view, i) => {
      const row = data[i]!;
      const cell = (name: string) => row[col(name)]!;
      expect(cell('HS code')).toMatchObject({ t: 'text', text: view[0] });
      expect(dash(cell('Importer').text)).toBe(view[1]);
      expect(dash(cell('From').text)).toBe(view[2]);
      expect(cell('Shipments').t).toBe('number');
      expect(num(cell('Shipments').text)).toBe(num(view[3]!));
      expect(cell('USD per kg').t).toBe('number');
      expect(num(cell('USD per kg').text)).toBe(num(view[4]!));
      expect(cell('HS median USD per kg').t).toBe(view[5] === '—' ? 'empty' : 'number');
      if (view[5] !== '—') expect(num(cell('HS median USD per kg').text)).toBe(num(view[5]!));
      expect(cell('Outlier').text).toBe(view[6]);
    });
    // The flag follows from the row's own numbers in the file: outside 1.5 × IQR (in logs) of its HS code.
    let checked = 0;
    for (const row of data) {
      const v = (name: string) => num(row[col(name)]!.text);
      const [uv, q1, q3] = [v('USD per kg'), v('HS Q1'), v('HS Q3')];
      const lo = q1 * (q1 / q3) ** 1.5;
      const hi = q3 * (q3 / q1) ** 1.5;
      const tooFew = v('HS shipments') < 4;
      // Quartiles are written to 4 decimals: a value that close to a fence is not judged here.
      if (!tooFew && Math.min(Math.abs(uv - lo) / lo, Math.abs(uv - hi) / hi) < 1e-3) continue;
      const expected = tooFew ? '' : uv < lo ? 'Low' : uv > hi ? 'High' : '';
      expect(row[col('Outlier')]!.text, JSON.stringify(row)).toBe(expected);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(Number(groups) * 0.9);
  });

  it('one summary per tab: arrows move between tabs, an opened HS chapter stays open, Escape closes the profile', async () => {
    await analysis.open();
    await analysis.waitForSummaries();
    await analysis.showTab('importers');
    const page = analysis.page;
    await page.getByTestId('analysis-tab-importers').focus();
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-testid="analysis-tab-exporters"][aria-selected="true"]').waitFor();
    await analysis.table('exporters').waitFor();
    expect(await analysis.table('importers').count()).toBe(0);

    const chapter = (await analysis.rows('hs'))[0]!.key;
    await analysis.toggleHsChapter(chapter);
    await analysis.showTab('months');
    await analysis.showTab('hs');
    expect(await page.getByTestId(`analysis-hs-toggle-${chapter}`).getAttribute('aria-expanded')).toBe(
      'true',
    );
    await analysis.toggleHsChapter(chapter);

    await analysis.openProfile('importers', 0);
    await page.keyboard.press('Escape');
    await page.getByTestId('analysis-profile-summary').waitFor({ state: 'detached' });
    // Focus is back on the button that opened the profile.
    await expect
      .poll(() =>
        page
          .locator('body')
          // Run on the body element: this file is compiled without the DOM's global names.
          .evaluate((b) => b.ownerDocument.activeElement?.getAttribute('data-testid') ?? null),
      )
      .toBe('analysis-profile-importers-0');
  });

  it('shows a firm profile and the snapshot diff of two datasets', async () => {
    const firm = top(importers, TOP)[0]!;
    const profile = await analysis.openProfile('importers', 0);
    const asExporter = records.filter((r) => r.exporterUrlCode === firm.key).length;
    const summary = (await profile.getByTestId('analysis-profile-summary').textContent()) ?? '';
    expect(summary).toContain(`As importer: ${firm.shipments.toLocaleString('en-US')} shipments`);
    expect(summary).toContain(`As exporter: ${asExporter.toLocaleString('en-US')} shipments`);
    // Partners per role: exporters it bought from and importers it sold to (the profile lists 25 at most).
    const partners = new Set([
      ...records.filter((r) => r.importerUrlCode === firm.key).map((r) => `exporter ${r.exporterUrlCode}`),
      ...records.filter((r) => r.exporterUrlCode === firm.key).map((r) => `importer ${r.importerUrlCode}`),
    ]);
    expect(await profile.getByTestId('analysis-profile-partners').locator('tbody tr').count()).toBe(
      Math.min(partners.size, 25),
    );
    await browser.screenshot('analysis-profile');
    await analysis.closeProfile();

    const usImporters = new Set(
      records.filter((r) => r.importerCountryCode === 'US').map((r) => r.importerUrlCode),
    );
    const counts = await analysis.diff(usId, 'importer');
    expect((await counts.textContent())?.trim()).toBe(
      `0 new · ${importers.size - usImporters.size} lost · ${usImporters.size} in both`,
    );
    await browser.page.getByTestId('analysis-diff-table').scrollIntoViewIfNeeded();
    await browser.screenshot('analysis-diff');
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });

  it('counts firms resolved: a firm under several spellings is one row, its drill opens all of their rows', async () => {
    await analysis.open();
    await analysis.waitForSummaries();
    await analysis.setFirms('resolved');
    const rows = await analysis.rows('importers');
    // The first firm written more than one way, by the simulator's truth of which names are one firm.
    const truthOfName = new Map<string, Set<number>>();
    for (const r of records) {
      const firm = stack.sim.dataset.firmByUrlCode(r.importerUrlCode)?.firmId;
      if (firm === undefined) continue;
      truthOfName.set(r.importerName, (truthOfName.get(r.importerName) ?? new Set()).add(firm));
    }
    const many = await analysis.page.locator('[data-testid^="analysis-spellings-importers-"]').first();
    const index = Number((await many.getAttribute('data-testid'))!.split('-').at(-1));
    const firm = rows[index]!;
    for (const [width, height] of [
      [1440, 900],
      [1024, 700],
    ] as const) {
      await browser.page.setViewportSize({ width, height });
      for (const scheme of ['light', 'dark'] as const) {
        await browser.page.emulateMedia({ colorScheme: scheme });
        await analysis.row('importers', index).scrollIntoViewIfNeeded();
        await browser.page.screenshot({
          path: join(ARTIFACTS_DIR, `analysis-resolved-${width}-${scheme}.png`),
        });
      }
    }
    await browser.page.emulateMedia({ colorScheme: 'light' });
    await browser.page.setViewportSize({ width: 1280, height: 860 });

    // Its profile: every spelling, in either role.
    const profile = await analysis.openProfile('importers', index);
    expect(await profile.getByTestId('analysis-profile-summary').textContent()).toContain(
      `As importer: ${firm.shipments.toLocaleString('en-US')} shipments`,
    );
    await profile.getByTestId('analysis-profile-spellings').waitFor();
    await browser.screenshot('analysis-resolved-profile');
    await analysis.closeProfile();

    await analysis.showTab('importers');
    await analysis.row('importers', index).click();
    await browser.page.getByTestId('library-drill-label').filter({ hasText: firm.label }).waitFor();
    expect(await library.waitForRows()).toBe(firm.shipments);
    // The first and the last spellings in name order (the grid draws only the rows in view).
    const names = new Set<string>();
    await library.sortBy('importerName');
    for (const n of await library.columnValues('importerName', Math.min(firm.shipments, 8))) names.add(n);
    await library.sortBy('importerName');
    for (const n of await library.columnValues('importerName', Math.min(firm.shipments, 8))) names.add(n);
    expect(names.size).toBeGreaterThan(1);
    // Every spelling in the drill is a name of one and the same firm of the simulator.
    const common = [...names].reduce<Set<number> | null>(
      (acc, n) => new Set([...(truthOfName.get(n) ?? [])].filter((f) => acc === null || acc.has(f))),
      null,
    );
    expect(common?.size).toBe(1);
    const truth = [...common!][0]!;
    const truthRows = records.filter(
      (r) => stack.sim.dataset.firmByUrlCode(r.importerUrlCode)?.firmId === truth,
    );
    expect(firm.shipments).toBe(truthRows.length);
    // The resolved firm column, shown from the column chooser: one firm on every row of the drill.
    await browser.page.getByTestId('library-columns-toggle').click();
    await browser.page.getByTestId('library-columns-col-importerFirm').check();
    await browser.page.keyboard.press('Escape');
    await expect
      .poll(async () => new Set(await library.columnValues('importerFirm', Math.min(firm.shipments, 8))), {
        timeout: 30_000,
      })
      .toEqual(new Set([firm.label]));
    await browser.screenshot('library-resolved-firm-drill');

    // Back to firms as written for whatever runs next.
    await analysis.open();
    await analysis.setFirms('asWritten');
    expect(browser.errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
  });
});
