import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDecimalText } from '@shared/fields';
import { SHIPMENT_FIELDS, type ShipmentRecord } from '@shared/spec';
import { FIRM_PAGE_SIZE } from '../../src/main/sim';
import type { AppShell } from './pages/app-shell';
import { FirmsWorkbench } from './pages/firms-workbench';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import {
  allowClipboard,
  excelBlock,
  expectBlockSummed,
  shown,
  SHIPMENT_COLUMN_GROUPS,
} from './support/grid-block';
import { luminance } from './support/colours';
import { startStack, type Stack } from './support/stack';

const RECORDS = 50_000;
const SIZE = 100;
const FROM = '2021-01-01';
const TO = '2025-12-31';

interface ExpectedFirm {
  name: string;
  urlCode: string;
  count: number;
}

/** The shell scrolls inside its main area, so a full-page shot shows only what is scrolled into view. */
async function shot(browser: Browser, name: string, focus: Locator): Promise<void> {
  await focus.first().evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await browser.screenshot(name);
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const num = (t: string) => Number(t.replace(/,/g, ''));

describe('Query workbench grids: columns, layout memory, filters, firm paging, dark theme', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let search: SearchWorkbench;
  let firms: FirmsWorkbench;
  /** The answer the service must give to the broad filter: computed from the simulator's data, not from the app. */
  let expectedRows: ShipmentRecord[];
  let expectedFirms: ExpectedFirm[];

  screenshotOnFailure(() => browser);

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    const all = [...stack.sim.dataset.records()];
    // The simulator's documented order: arrivalDate descending, then hashId ascending.
    all.sort((a, b) => byCodeUnit(b.arrivalDate, a.arrivalDate) || byCodeUnit(a.hashId, b.hashId));
    expectedRows = all.slice(0, SIZE);
    const firmsByCode = new Map<string, ExpectedFirm>();
    for (const r of all) {
      const f = firmsByCode.get(r.importerUrlCode) ?? {
        name: r.importerName,
        urlCode: r.importerUrlCode,
        count: 0,
      };
      f.count++;
      firmsByCode.set(r.importerUrlCode, f);
    }
    // Firm search order: shipment_count descending, then name, then UrlCode (code-unit order).
    expectedFirms = [...firmsByCode.values()].sort(
      (a, b) => b.count - a.count || byCodeUnit(a.name, b.name) || byCodeUnit(a.urlCode, b.urlCode),
    );

    browser = await launchBrowser();
    await allowClipboard(browser, stack);
    search = new SearchWorkbench(browser.page);
    firms = new FirmsWorkbench(browser.page);
    shell = await openConnected(browser, stack);

    await shell.navigate('search');
    await search.clearFilter();
    await search.setDates(FROM, TO);
    await search.setSize(SIZE);
    await search.runFresh();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it("a new answer's first rows take the last one's place at the top of the same grid", async () => {
    const names = (rows: ShipmentRecord[]) => rows.slice(0, 5).map((r) => r.importerName);
    expect(await search.columnValues('importerName', 5)).toEqual(names(expectedRows));
    // Far down the first answer, then a narrower question.
    await search.grid.locator('.ag-grid-viewport').evaluate((v) => (v.scrollTop = v.scrollHeight));
    await search.grid.locator(`.ag-row[row-index="${SIZE - 1}"]`).waitFor();
    const until = '2023-06-30';
    const narrower = [...stack.sim.dataset.records()]
      .filter((r) => r.arrivalDate >= FROM && r.arrivalDate <= until)
      .sort((a, b) => byCodeUnit(b.arrivalDate, a.arrivalDate) || byCodeUnit(a.hashId, b.hashId));
    expect(names(narrower)).not.toEqual(names(expectedRows));
    await search.setDates(FROM, until);
    await search.runFresh();
    expect(await search.columnValues('importerName', 5)).toEqual(names(narrower));
    // Its first row is in view, not the place the last answer was scrolled to.
    const viewport = await search.grid.locator('.ag-grid-viewport').boundingBox();
    const first = await search.grid.locator('.ag-row[row-index="0"]').first().boundingBox();
    expect(first && viewport && first.y >= viewport.y && first.y < viewport.y + viewport.height).toBe(true);
    // The broad question again, for the cases after this one.
    await search.setDates(FROM, TO);
    await search.runFresh();
    expect(await search.columnValues('importerName', 5)).toEqual(names(expectedRows));
  });

  it('shows the six column groups; the chooser shows and hides a column and a whole group, and pins', async () => {
    const grid = search.table;
    // By default no column of the Record group is shown, so its header is not either.
    expect(await grid.groupNames()).toEqual(['Importer', 'Exporter', 'Goods', 'Values', 'Logistics']);
    const chooser = await search.openChooser();
    await expect
      .poll(() =>
        chooser.getByRole('group').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? '')),
      )
      .toEqual(['Importer', 'Exporter', 'Goods', 'Values', 'Logistics', 'Record']);
    expect(await grid.rowCount()).toBe(SIZE);
    expect(await search.columnValues('arrivalDate', 5)).toEqual(
      expectedRows.slice(0, 5).map((r) => r.arrivalDate),
    );

    // One column.
    await search.setColumnVisible('hashId', true);
    await grid.header('hashId').waitFor();
    await search.setColumnVisible('usdCif', false);
    await grid.header('usdCif').waitFor({ state: 'detached' });
    expect(await grid.displayedColumns()).toContain('hashId');
    expect(await grid.displayedColumns()).not.toContain('usdCif');
    expect(await grid.groupNames()).toEqual([...SHIPMENT_COLUMN_GROUPS]);

    // A whole group: every exporter column of the spec, then none of them.
    const exporterFields = SHIPMENT_FIELDS.filter(
      (f) => f.startsWith('exporter') && f !== 'exporterDataType',
    );
    await search.setGroupVisible('Exporter', true);
    await expect
      .poll(async () => (await grid.displayedColumns()).filter((c) => c.startsWith('exporter')).sort())
      .toEqual([...exporterFields].sort());
    await shot(browser, 'grid-01-exporter-group-shown', search.grid);
    await search.setGroupVisible('Exporter', false);
    await expect
      .poll(async () => (await grid.displayedColumns()).filter((c) => c.startsWith('exporter')))
      .toEqual([]);
    expect(await grid.groupNames()).not.toContain('Exporter');
    await search.setColumnVisible('exporterName', true);
    await grid.header('exporterName').waitFor();

    // Pin (community ag-grid has no column menu: the chooser pins).
    await search.pin('usdFob', 'left');
    await expect.poll(() => grid.pinnedLeft()).toEqual(['actions', 'usdFob']);
    expect(await search.chooser.getByTestId('shipments-columns-pin-usdFob').inputValue()).toBe('left');
    await shot(browser, 'grid-02-chooser-pinned', search.grid);
    await search.closeChooser();
  });

  it('sorts numbers as numbers, and remembers order, width, visibility, sort and pin across a reload', async () => {
    const grid = search.table;
    // Resize.
    const before = await grid.width('productDetails');
    await grid.resize('productDetails', 120);
    await expect.poll(() => grid.width('productDetails')).toBeGreaterThan(before + 100);
    // Reorder by dragging a header: Country before Name in the Importer group.
    await grid.scrollToStart();
    const orderBefore = await grid.displayedColumns();
    expect(orderBefore.indexOf('importerCountry')).toBe(orderBefore.indexOf('importerName') + 1);
    await grid.moveBefore('importerCountry', 'importerName');
    await expect
      .poll(async () => {
        const o = await grid.displayedColumns();
        return o.indexOf('importerCountry') < o.indexOf('importerName');
      })
      .toBe(true);
    // Sort usdFob descending: every row, numerically (as text "9.5" would sort above "10.2").
    await grid.sortBy('usdFob');
    await grid.sortBy('usdFob');
    await expect.poll(() => grid.sortOf('usdFob')).toBe('descending');
    const want = expectedRows.map((r) => Number(r.usdFob)).sort((a, b) => b - a);
    await expect
      .poll(async () => (await grid.rows(['usdFob'])).map((r) => num(r.usdFob ?? '')))
      .toEqual(want);
    // The data must contain values whose text order differs from their number order, or this proves nothing.
    const asText = expectedRows
      .map((r) => r.usdFob)
      .sort()
      .reverse()
      .map(Number);
    expect(asText).not.toEqual(want);

    const layout = {
      order: await grid.displayedColumns(),
      width: await grid.width('productDetails'),
      pinned: await grid.pinnedLeft(),
    };
    await shot(browser, 'grid-03-layout-before-reload', search.grid);

    await browser.page.reload();
    await search.root.waitFor();
    // The last filter comes back with the page; the answer is fetched again.
    await expect.poll(() => search.field('filter-start_date-input').inputValue()).toBe(FROM);
    await search.setSize(SIZE);
    await search.runFresh();
    const after = search.table;
    await expect.poll(() => after.displayedColumns()).toEqual(layout.order);
    expect(await after.width('productDetails')).toBe(layout.width);
    expect(await after.pinnedLeft()).toEqual(layout.pinned);
    expect(await after.sortOf('usdFob')).toBe('descending');
    expect(layout.order).toContain('hashId');
    expect(layout.order).not.toContain('usdCif');
    expect(layout.order.filter((c) => c.startsWith('exporter'))).toEqual(['exporterName']);
    // The grid reads its blocks again once the restored columns are in place: wait for them.
    await expect
      .poll(async () => (await after.rows(['usdFob'])).map((r) => num(r.usdFob ?? '')))
      .toEqual(want);
    await shot(browser, 'grid-04-layout-after-reload', search.grid);
  });

  it('the quick filter narrows rows to those containing the text', async () => {
    const grid = search.table;
    // The quick filter runs in SQL over the record's searched fields (the same for the grid and an export
    // of the view), whichever columns are shown: its text fields, as a country name can only be there.
    const textCols = [
      'importerName',
      'exporterName',
      'productDetails',
      'hsCode',
      'hsCodeDescription',
      'importerCountry',
      'exporterCountry',
      'portOfArrival',
      'portOfDeparture',
      'transportType',
      'quantityUnit',
      'brandName',
      'billOfLadingNo',
      'hashId',
    ];
    // The commonest importer country of the answer: it matches several rows, not all.
    const freq = new Map<string, number>();
    for (const r of expectedRows) freq.set(r.importerCountry, (freq.get(r.importerCountry) ?? 0) + 1);
    const name = [...freq.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
    const term = name.toLowerCase();
    const want = expectedRows
      .filter((r) =>
        textCols.some((c) =>
          String(r[c as keyof ShipmentRecord])
            .toLowerCase()
            .includes(term),
        ),
      )
      .map((r) => r.hashId);
    expect(want.length).toBeGreaterThan(1);
    expect(want.length).toBeLessThan(SIZE);
    await search.quickFilter.fill(name);
    await expect.poll(() => grid.shownCount()).toBe(want.length);
    const shown = await grid.rows(['hashId']);
    expect(shown.map((r) => r.hashId).sort()).toEqual([...want].sort());
    expect(await browser.page.getByTestId('shipments-grid-count').textContent()).toBe(
      `${want.length} of ${SIZE} rows match`,
    );
    await shot(browser, 'grid-05-quick-filter', search.grid);
    await search.quickFilter.fill('');
    await expect.poll(() => grid.shownCount()).toBe(SIZE);
  });

  it('shows numbers with thousands separators and each field’s decimals; the status bar counts the rows', async () => {
    const grid = search.table;
    const byHash = new Map(expectedRows.map((r) => [r.hashId, r]));
    const rows = await grid.rows(['hashId', 'usdFob', 'netWeight', 'quantity']);
    expect(rows).toHaveLength(SIZE);
    let grouped = 0;
    for (const r of rows) {
      const rec = byHash.get(r.hashId ?? '');
      if (!rec) throw new Error(`row ${r.hashId} is not in the answer`);
      // Money: 2 decimals. Weights: 3. Quantity: up to 3, none when whole. Filler text as sent.
      expect(r.usdFob).toBe(shown(Number(rec.usdFob), 2));
      const net = parseDecimalText(rec.netWeight);
      expect(r.netWeight).toBe(net === null ? rec.netWeight : shown(net, 3));
      expect(r.quantity).toBe(shown(Number(rec.quantity), 0, 3));
      if ((r.usdFob ?? '').includes(',')) grouped++;
    }
    // The answer must hold values of four digits or more, or the separators were not seen.
    expect(grouped).toBeGreaterThan(0);
    expect(await browser.page.getByTestId('shipments-grid-count').textContent()).toBe(`${SIZE} rows`);
  });

  it('selects a block by click and Shift+click, drag or Shift+arrows: the status bar shows its sum and average, Ctrl+C copies it as tab-separated text', async () => {
    const grid = search.table;
    const hashes = await search.columnValues('hashId', 8);
    const byHash = new Map(expectedRows.map((r) => [r.hashId, r]));
    const block = (top: number, bottom: number, cols: (keyof ShipmentRecord & string)[]) =>
      hashes.slice(top, bottom + 1).map((h) => {
        const rec = byHash.get(h);
        if (!rec) throw new Error(`row ${h} is not in the answer`);
        return cols.map((c) => String(rec[c]));
      });
    // Two numeric columns and one of text, side by side in the Goods group.
    const cols = ['netWeight', 'quantity', 'quantityUnit'] as const;
    const order = await grid.displayedColumns();
    expect(order.slice(order.indexOf('netWeight'), order.indexOf('netWeight') + 3)).toEqual([...cols]);

    await grid.selectBlock([1, 'netWeight'], [5, 'quantityUnit']);
    const values = block(1, 5, [...cols]);
    // Only the numeric fields' numbers count (a filler such as "N/A" in Net Weight does not); quantity
    // has up to 3 decimals and weight 3: the figures show 3.
    expect((await expectBlockSummed(grid, values, 15)).length).toBeGreaterThan(5);
    expect((await grid.selectedCells()).length).toBe(15);
    await shot(browser, 'grid-05b-selection', search.grid);

    // The clipboard holds the block as Excel pastes it: numbers plain, tabs between cells, CRLF between rows.
    expect(await grid.copy()).toBe(excelBlock(values));

    // Shift+↓ takes one more row; Escape goes back to one cell.
    await browser.page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await grid.selection())?.cells).toBe(18);
    await browser.page.keyboard.press('Escape');
    await expect.poll(() => grid.selection()).toBeNull();

    // A drag from the money column to the left: USD FOB is pinned, so the block runs through it.
    await grid.dragBlock([0, 'usdFob'], [2, 'usdFob']);
    const fobs = block(0, 2, ['usdFob']).flat().map(Number);
    const fobSum = fobs.reduce((a, b) => a + b, 0);
    await expect
      .poll(() => grid.selection())
      .toEqual({
        cells: 3,
        numbers: 3,
        sum: `Sum ${shown(fobSum, 2)}`,
        average: `Average ${shown(fobSum / 3, 2)}`,
      });
    expect(await grid.copy()).toBe(fobs.map(String).join('\r\n'));
    await grid.cell(0, 'importerName').click();
    await expect.poll(() => grid.selection()).toBeNull();
  });

  it('opens the whole record, grouped like the columns, by double-click or Enter; Escape closes it and the focus goes back to the row', async () => {
    const grid = search.table;
    const hash = (await search.columnValues('hashId', 3))[2] as string;
    const rec = expectedRows.find((r) => r.hashId === hash) as ShipmentRecord;
    await grid.cell(2, 'importerName').dblclick();
    const view = await grid.recordView();
    await view.waitFor();
    const groups = await grid.recordGroups();
    expect(groups.map((g) => g.name)).toEqual([...SHIPMENT_COLUMN_GROUPS]);
    // Every field of the spec, hidden columns included, each shown as the grid shows it.
    expect(groups.flatMap((g) => Object.keys(g.fields)).sort()).toEqual([...SHIPMENT_FIELDS].sort());
    const all = Object.assign({}, ...groups.map((g) => g.fields)) as Record<string, string>;
    expect(all.hashId).toBe(rec.hashId);
    expect(all.importerName).toBe(rec.importerName || '—');
    expect(all.usdCif).toBe(shown(Number(rec.usdCif), 2));
    expect(await browser.page.getByTestId('shipments-grid-record-position').textContent()).toBe(
      `3 of ${SIZE}`,
    );
    // The drawer has slid in (its opening transition) before the picture is taken.
    await expect.poll(() => view.evaluate((e) => e.getAnimations().length)).toBe(0);
    await shot(browser, 'grid-05c-record-view', view);

    // Next row, then Escape: the focus is back in the grid, on the row last shown.
    await browser.page.getByTestId('shipments-grid-record-next').click();
    await expect
      .poll(() => browser.page.getByTestId('shipments-grid-record-position').textContent())
      .toBe(`4 of ${SIZE}`);
    await browser.page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => grid.focusedCell()).toBe('3:importerName');

    // Enter on the focused cell opens its row.
    await browser.page.keyboard.press('ArrowUp');
    await expect.poll(() => grid.focusedCell()).toBe('2:importerName');
    await browser.page.keyboard.press('Enter');
    await view.waitFor();
    expect(await browser.page.getByTestId('shipments-grid-record-position').textContent()).toBe(
      `3 of ${SIZE}`,
    );
    await browser.page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await expect.poll(() => grid.focusedCell()).toBe('2:importerName');
  });

  it('is one Tab stop: Tab and Shift+Tab leave the grid from any cell, the arrows move inside it, Enter on Parties opens them', async () => {
    const grid = search.table;
    const focusedTestId = () =>
      browser.page
        .locator(':focus')
        .getAttribute('data-testid', { timeout: 500 })
        .catch(() => null);
    const inGrid = () => search.grid.evaluate((root) => root.contains(root.ownerDocument.activeElement));

    await grid.cell(2, 'importerName').click();
    await expect.poll(() => grid.focusedCell()).toBe('2:importerName');
    await browser.page.keyboard.press('Tab');
    await expect.poll(inGrid).toBe(false);

    await grid.cell(5, 'exporterName').click();
    await browser.page.keyboard.press('Shift+Tab');
    // Back to the control before the grid: its tools above it.
    await expect.poll(focusedTestId).toBe('shipments-columns-toggle');
    // Tab comes back into the grid (its headers), and the arrows reach the cells.
    await browser.page.keyboard.press('Tab');
    await expect.poll(inGrid).toBe(true);
    await browser.page.keyboard.press('ArrowDown');
    await expect.poll(() => grid.focusedCell()).not.toBeNull();

    // The Parties button of each row is not a Tab stop of its own (a page of rows would be as many);
    // its cell takes Enter.
    await grid.cell(1, 'importerName').click();
    for (let i = 0; i < 8 && (await grid.focusedCell()) !== '1:actions'; i++)
      await browser.page.keyboard.press('ArrowLeft');
    expect(await grid.focusedCell()).toBe('1:actions');
    await browser.page.keyboard.press('Enter');
    await browser.page.getByTestId('party-panel').waitFor();
    await browser.page.keyboard.press('Escape');
    await browser.page.getByTestId('party-panel').waitFor({ state: 'detached' });
    await grid.cell(1, 'importerName').click();
    for (let i = 0; i < 8 && (await grid.focusedCell()) !== '1:actions'; i++)
      await browser.page.keyboard.press('ArrowLeft');
    await browser.page.keyboard.press('Tab');
    await expect.poll(inGrid).toBe(false);
  });

  it('a number filter on usdFob and a date filter on arrivalDate keep exactly the rows that satisfy them', async () => {
    const grid = search.table;
    const fobs = expectedRows.map((r) => Number(r.usdFob)).sort((a, b) => a - b);
    const threshold = fobs[Math.floor(fobs.length / 2)] as number;
    const wantFob = expectedRows.filter((r) => Number(r.usdFob) > threshold);

    const popup = await grid.openFilter('usdFob');
    await grid.chooseCondition(popup, 'Greater than');
    await popup.locator('input.ag-input-field-input').first().fill(String(threshold));
    // The grid filters in SQL, on Apply (which closes the popup).
    await popup.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => grid.shownCount()).toBe(wantFob.length);
    await shot(browser, 'grid-06-number-filter', search.grid);
    const shownFob = await grid.rows(['usdFob', 'hashId']);
    for (const r of shownFob) expect(num(r.usdFob ?? '')).toBeGreaterThan(threshold);
    expect(shownFob.map((r) => r.hashId).sort()).toEqual(wantFob.map((r) => r.hashId).sort());

    // And on top of it, arrivalDate before a day inside the answer's range.
    const days = [...new Set(expectedRows.map((r) => r.arrivalDate))].sort();
    expect(days.length).toBeGreaterThan(1);
    const cut = days[days.length - 1] as string;
    const wantBoth = wantFob.filter((r) => r.arrivalDate < cut);
    expect(wantBoth.length).toBeGreaterThan(0);
    expect(wantBoth.length).toBeLessThan(wantFob.length);
    const datePopup = await grid.openFilter('arrivalDate');
    await grid.chooseCondition(datePopup, 'Before');
    await datePopup.locator('input[type="date"]').first().fill(cut);
    await datePopup.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => grid.shownCount()).toBe(wantBoth.length);
    await shot(browser, 'grid-07-date-filter', search.grid);
    const shownBoth = await grid.rows(['usdFob', 'arrivalDate', 'hashId']);
    for (const r of shownBoth) {
      expect(num(r.usdFob ?? '')).toBeGreaterThan(threshold);
      expect((r.arrivalDate ?? '') < cut).toBe(true);
    }
    expect(shownBoth.map((r) => r.hashId).sort()).toEqual(wantBoth.map((r) => r.hashId).sort());
  });

  it('keeps the column filters, the quick filter and the sort across a page change; filters and sort across a reload', async () => {
    const grid = search.table;
    const shownBefore = await grid.shownCount();
    expect(shownBefore).toBeLessThan(SIZE);
    const model = async () =>
      String(await browser.page.evaluate("localStorage.getItem('portolan.grid.shipments.filters')"));
    expect(JSON.parse(await model())).toHaveProperty('usdFob');

    // A quick filter on top: the hash of one row still shown narrows the view to that row.
    const [hash] = await search.columnValues('hashId', 1);
    expect(hash).toBeTruthy();
    await search.quickFilter.fill(hash as string);
    await expect.poll(() => grid.shownCount()).toBe(1);

    await shell.navigate('settings');
    await shell.navigate('search');
    await search.grid.locator('.ag-row[row-index="0"]').first().waitFor();
    expect(await search.quickFilter.inputValue()).toBe(hash);
    await expect.poll(() => grid.shownCount()).toBe(1);
    // The count can come before the row's cells: a block read before the remembered columns were back
    // is read again with them.
    await expect.poll(async () => (await grid.rows(['hashId'])).map((r) => r.hashId)).toEqual([hash]);

    await search.quickFilter.fill('');
    await expect.poll(() => grid.shownCount()).toBe(shownBefore);
    expect(await grid.sortOf('usdFob')).toBe('descending');
    expect(await browser.page.getByTestId('shipments-grid-count').textContent()).toBe(
      `${shownBefore} of ${SIZE} rows match`,
    );

    await browser.page.reload();
    await search.root.waitFor();
    await search.setSize(SIZE);
    await search.runFresh();
    await expect.poll(() => search.table.shownCount()).toBe(shownBefore);
    expect(await search.table.sortOf('usdFob')).toBe('descending');
    await shot(browser, 'grid-07b-filters-after-reload', search.grid);
    // The header's filter mark is on the filtered columns.
    for (const col of ['usdFob', 'arrivalDate']) {
      await search.grid.locator(`.ag-header-cell[col-id="${col}"].ag-header-cell-filtered`).waitFor();
    }
  });

  it('firms: pages forward, back and by number; page numbers and the firm count are shown; an out-of-range page is refused', async () => {
    const pages = Math.ceil(expectedFirms.length / FIRM_PAGE_SIZE);
    expect(pages).toBeGreaterThanOrEqual(3);
    await shell.navigate('firms');
    await firms.search();
    expect(await firms.pageInfo()).toEqual({ page: 1, pages });
    expect(await firms.summary.textContent()).toContain(
      `Page 1 of ${pages} · ${FIRM_PAGE_SIZE} firms on this page`,
    );
    expect(await firms.firmName(0)).toBe(expectedFirms[0]?.name);

    await firms.next();
    expect(await firms.firmName(0)).toBe(expectedFirms[FIRM_PAGE_SIZE]?.name);
    expect(await firms.summary.textContent()).toContain(`Page 2 of ${pages}`);
    await shot(browser, 'grid-08-firms-page-2', firms.summary);
    await firms.previous();
    expect(await firms.firmName(0)).toBe(expectedFirms[0]?.name);

    await firms.jumpTo(pages);
    const lastCount = expectedFirms.length - FIRM_PAGE_SIZE * (pages - 1);
    expect(await firms.summary.textContent()).toContain(
      `Page ${pages} of ${pages} · ${lastCount} firms on this page`,
    );
    expect(await firms.firmName(0)).toBe(expectedFirms[FIRM_PAGE_SIZE * (pages - 1)]?.name);
    expect(await firms.table.rowCount()).toBe(lastCount);
    expect(await browser.page.getByTestId('firms-next').isDisabled()).toBe(true);

    await firms.typePage(pages + 1);
    await firms.pageInputError.waitFor();
    expect(await firms.pageInputError.textContent()).toBe(`Page: between 1 and ${pages}`);
    expect(await firms.pageInput.getAttribute('aria-invalid')).toBe('true');
    expect(await browser.page.getByTestId('firms-page-go').isDisabled()).toBe(true);
    await firms.pageInput.press('Enter');
    await shot(browser, 'grid-09-firms-out-of-range', firms.summary);
    expect((await firms.pageInfo()).page).toBe(pages);
    await firms.typePage(0);
    expect(await firms.pageInputError.textContent()).toBe(`Page: between 1 and ${pages}`);
    await firms.jumpTo(2);
    expect(await firms.firmName(0)).toBe(expectedFirms[FIRM_PAGE_SIZE]?.name);
    await firms.pageInputError.waitFor({ state: 'detached' });

    expect(await firms.count()).toBe(expectedFirms.length);
    expect(await browser.page.getByTestId('firms-count-result').textContent()).toBe(
      `${expectedFirms.length.toLocaleString('en-US')} firms match the filter.`,
    );
  });

  it('follows the dark and light colour scheme: the app, the grid and the column chooser', async () => {
    const bg = (sel: string) =>
      browser.page
        .locator(sel)
        .first()
        .evaluate((e) => e.ownerDocument.defaultView?.getComputedStyle(e).backgroundColor ?? '');
    const fg = (sel: string) =>
      browser.page
        .locator(sel)
        .first()
        .evaluate((e) => e.ownerDocument.defaultView?.getComputedStyle(e).color ?? '');
    await shell.navigate('search');
    // The answer stays with the page; the grid is mounted again with its remembered layout.
    await search.grid.locator('.ag-row[row-index="0"]').first().waitFor();
    await search.openChooser();
    const grid = '[data-testid="shipments-grid"] .ag-root-wrapper';
    const cell = '[data-testid="shipments-grid"] .ag-row[row-index="0"] .ag-cell[col-id="importerName"]';

    await browser.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => search.grid.getAttribute('data-ag-theme-mode')).toBe('dark');
    await expect.poll(async () => luminance(await bg(grid))).toBeLessThan(0.05);
    expect(luminance(await bg('body'))).toBeLessThan(0.05);
    expect(luminance(await bg('[data-testid="shipments-columns"]'))).toBeLessThan(0.05);
    expect(luminance(await fg(cell))).toBeGreaterThan(0.6);
    expect(luminance(await fg('body'))).toBeGreaterThan(0.6);
    await shot(browser, 'grid-10-dark', search.grid);

    await browser.page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => search.grid.getAttribute('data-ag-theme-mode')).toBe('light');
    await expect.poll(async () => luminance(await bg(grid))).toBeGreaterThan(0.85);
    expect(luminance(await bg('body'))).toBeGreaterThan(0.85);
    expect(luminance(await bg('[data-testid="shipments-columns"]'))).toBeGreaterThan(0.85);
    expect(luminance(await fg(cell))).toBeLessThan(0.1);
    await shot(browser, 'grid-11-light', search.grid);
    await search.closeChooser();
    expect(browser.errors).toEqual([]);
    expect(await browser.page.content()).not.toContain(stack.account.apiSecret);
    expect(stack.log.lines.join('\n')).not.toContain(stack.account.apiSecret);
  });
});
