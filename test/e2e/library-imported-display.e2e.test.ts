import { beforeAll, describe, expect, it } from 'vitest';
import { AgGrid } from './pages/ag-grid';
import { useImportOnDemo } from './support/import-on-demo';
import { describeOverlaps, overlaps, visibleControls } from './support/layout';

/** A desk's CSV: a few fields (one left empty on a row), and columns no field takes: a number, a day, a note. */
const DESK_CSV = [
  'Importer Name,Importer Country,HS Code,Arrival Date,Margin,Checked on,Desk note',
  'Acme Steel,Germany,720810,2025-01-05,"1,250.5",2025-02-01,urgent',
  'Beta Metals,,720811,2025-01-06,90,2025-01-15,',
  'Gamma Trade,Spain,720812,2025-01-07,300,2025-03-10,call back Zebra',
].join('\n');

describe('An imported file in the Library grid: missing fields shown as missing, extra columns filtered by type', () => {
  const app = useImportOnDemo();

  beforeAll(async () => {
    const { browser, shell, library, dialog } = app;
    await shell.navigate('library');
    await dialog.drop('desk.csv', DESK_CSV);
    await dialog.waitForMapping();
    await browser.page.getByTestId('import-name').fill('Desk file');
    await dialog.confirm();
    await browser.page.getByTestId('library-detail').waitFor();
    expect(await library.waitForRows()).toBe(3);
  }, 120_000);

  it('shows a field the file did not have as missing, apart from an empty value, in the grid and the record view', async () => {
    const { browser, library } = app;
    const grid = new AgGrid(browser.page, library.grid);
    // Exporter Name: no column of the file; Importer Country: a column, empty on row 2.
    const missing = grid.cell(0, 'exporterName');
    expect((await missing.textContent())?.trim()).toBe('—');
    expect(await missing.getAttribute('class')).toContain('portolan-cell-missing');
    const empty = grid.cell(1, 'importerCountry');
    expect((await empty.textContent())?.trim()).toBe('');
    expect(await empty.getAttribute('class')).not.toContain('portolan-cell-missing');
    expect(await grid.cell(0, 'importerCountry').getAttribute('class')).not.toContain(
      'portolan-cell-missing',
    );

    await grid.cell(1, 'importerName').dblclick();
    await (await grid.recordView()).waitFor();
    const fields = Object.assign({}, ...(await grid.recordGroups()).map((g) => g.fields)) as Record<
      string,
      string
    >;
    expect(fields.exporterName).toBe('missing from the imported file');
    expect(fields.importerCountry).toBe('—');
    expect(fields.importerName).toBe('Beta Metals');
    await browser.page.keyboard.press('Escape');
    await (await grid.recordView()).waitFor({ state: 'detached' });

    // An imported file has no query to refresh: it cannot be watched, and the header says why.
    await expect.poll(() => library.watchButton.getAttribute('data-state')).toBe('refused');
    expect(await library.watchButton.getAttribute('data-reason')).toMatch(/imported from a file/);
    await library.watchButton.hover();
    await browser.page.getByRole('tooltip').filter({ hasText: 'imported from a file' }).waitFor();
    await browser.page.mouse.move(1, 1);
  });

  it('filters extra columns as what their values are: numbers as numbers, days as days, and finds them by the quick filter', async () => {
    const { browser, library } = app;
    const grid = new AgGrid(browser.page, library.grid);
    // Numbers: a number filter, "1,250.5" read as 1250.5.
    let popup = await grid.openFilter('extra:Margin');
    await grid.chooseCondition(popup, 'Greater than');
    await popup.locator('input.ag-number-field-input').first().fill('100');
    await popup.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => library.grid.getAttribute('data-last-row')).toBe('2');
    await library.waitForRows();
    expect(await library.columnValues('importerName', 2)).toEqual(['Acme Steel', 'Gamma Trade']);
    popup = await grid.openFilter('extra:Margin');
    await popup.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => library.grid.getAttribute('data-last-row')).toBe('3');

    // Days: a date filter.
    popup = await grid.openFilter('extra:Checked on');
    await grid.chooseCondition(popup, 'After');
    await popup.locator('input.ag-input-field-input').first().fill('2025-02-15');
    await popup.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => library.grid.getAttribute('data-last-row')).toBe('1');
    await library.waitForRows();
    expect(await library.columnValues('importerName', 1)).toEqual(['Gamma Trade']);
    popup = await grid.openFilter('extra:Checked on');
    await popup.getByRole('button', { name: 'Reset' }).click();
    await expect.poll(() => library.grid.getAttribute('data-last-row')).toBe('3');

    // Text: a text filter; and the quick filter searches the extra columns too.
    popup = await grid.openFilter('extra:Desk note');
    expect(await popup.locator('input.ag-number-field-input').count()).toBe(0);
    await grid.closePopup();
    expect(await library.quickFilter('zebra')).toBe(1);
    expect(await library.columnValues('importerName', 1)).toEqual(['Gamma Trade']);
    expect(await library.quickFilter('')).toBe(3);

    // The import's toast fades on its own; it is not part of the page's layout.
    await browser.page.getByTestId('toast').first().waitFor({ state: 'detached', timeout: 20_000 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of [
        { width: 1440, height: 900 },
        { width: 1024, height: 700 },
      ]) {
        await browser.page.setViewportSize(size);
        await browser.page.waitForTimeout(200);
        await browser.screenshot(`library-imported-${size.width}x${size.height}-${colorScheme}`);
        expect(describeOverlaps(overlaps(await visibleControls(browser.page)))).toBe('');
      }
    }
  });
});
