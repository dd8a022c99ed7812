import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { contrast } from './support/colours';
import { startStack, type Stack } from './support/stack';

/**
 * The Search page as an analyst works it, in Chromium against the simulator: a half-typed date sends
 * nothing, messages name fields as the form does and go with their cause, country aliases, Enter runs,
 * presets in the side list (search, rename in place, drag to reorder), results first.
 */
describe('Search page: the filter, the run bar and the presets list', () => {
  let stack: Stack;
  let browser: Browser;
  let search: SearchWorkbench;
  screenshotOnFailure(() => browser);

  /** Shipment searches that reached the service (every attempt is logged by the client in main). */
  const searchesSent = () =>
    stack.log.lines.filter((l) => l.includes('"msg":"request"') && l.includes('"op":"shipmentSearch"'))
      .length;
  const answers = async () => Number(await search.root.getAttribute('data-answers'));

  beforeAll(async () => {
    stack = await startStack({ records: 3_000, seed: 3 });
    browser = await launchBrowser();
    await browser.page.setViewportSize({ width: 1440, height: 900 });
    search = new SearchWorkbench(browser.page);
    const shell = await openConnected(browser, stack);
    await shell.navigate('search');
    await search.setSize(10);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('before the first search, says what to do, names the Run button and its shortcut, instead of a blank grid', async () => {
    const empty = browser.page.getByTestId('search-empty');
    await empty.waitFor();
    const text = (await empty.textContent()) ?? '';
    expect(text).toContain('No search yet');
    expect(text).toContain('Search shipments');
    expect(text).toMatch(/press Enter in any field/);
    expect(await search.runButton.textContent()).toBe('Search shipments');
    expect(await search.grid.count()).toBe(0);
    // The hint sits below the run bar, in view, and the Run button is not hidden by it.
    const box = await empty.boundingBox();
    const run = await search.runButton.boundingBox();
    expect(box && run && box.y >= run.y + run.height && box.y + box.height <= 900).toBe(true);
    await browser.screenshot('search-00-before-first-search');

    // On a small window with "More filters" open, what to do still reads whole above the status bar.
    await browser.page.setViewportSize({ width: 1024, height: 700 });
    const more = browser.page.getByTestId('filter-more-toggle');
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    await browser.page.getByTestId('filter-search_type-input').waitFor();
    // Looked at once the fields have opened and the page has settled under them.
    await browser.page.waitForTimeout(500);
    const words = (await empty.getByText(/to work with offline/).boundingBox())!;
    const bar = (await browser.page.getByTestId('status-bar').boundingBox())!;
    await browser.screenshot('search-00b-before-first-search-1024-more');
    expect(words.y + words.height).toBeLessThanOrEqual(bar.y);
    await more.click();
    await browser.page.setViewportSize({ width: 1440, height: 900 });
  });

  it('a half-typed or impossible date is kept and said at its field, and Enter, Ctrl+Enter and Run send nothing', async () => {
    const from = search.field('filter-start_date-input');
    const to = search.field('filter-end_date-input');
    await from.fill('02/31/2024');
    await to.fill('2024-06-');
    expect(await from.inputValue()).toBe('02/31/2024');
    expect(await search.fieldError('start_date').textContent()).toBe(
      'Date from: not a whole date: type it as yyyy-mm-dd (e.g. 2024-03-31) or pick it',
    );
    expect(await search.fieldError('end_date').textContent()).toContain('Date to: not a whole date');
    expect(await search.runButton.isDisabled()).toBe(true);
    await browser.screenshot('search-01-half-typed-date');

    await from.press('Enter');
    await from.press('Control+Enter');
    await search.runButton.click({ force: true });
    // Give a wrongly sent request every chance to arrive before counting.
    await browser.page.waitForTimeout(500);
    expect(searchesSent()).toBe(0);
    expect(await answers()).toBe(0);

    // Whole dates: the messages go with their cause.
    await from.fill('2021-01-01');
    await to.fill('2025-12-31');
    await search.fieldError('start_date').waitFor({ state: 'detached' });
    await search.fieldError('end_date').waitFor({ state: 'detached' });
    expect(await search.runButton.isDisabled()).toBe(false);
  });

  it('finds countries by the names analysts use, and Enter in a field runs the search', async () => {
    for (const [typed, code] of [
      ['uk', 'GB'],
      ['usa', 'US'],
      ['holland', 'NL'],
      ['turkey', 'TR'],
      ['uae', 'AE'],
      ['korea', 'KR'],
    ] as const) {
      const input = search.field('filter-exporter_countries-input');
      await input.fill(typed);
      await browser.page.getByTestId(`filter-exporter_countries-option-${code}`).waitFor();
      const first = browser.page.getByTestId('filter-exporter_countries-options').getByRole('option').first();
      expect(await first.getAttribute('data-testid')).toBe(`filter-exporter_countries-option-${code}`);
      await input.press('Enter');
    }
    expect((await search.tags('exporter_countries')).map((t) => t.split(' ')[0])).toEqual([
      'GB',
      'US',
      'NL',
      'TR',
      'AE',
      'KR',
    ]);
    const before = await answers();
    await search.field('filter-product_detail-input').fill('');
    await search.field('filter-product_detail-input').press('Enter');
    await expect.poll(answers, { timeout: 60_000 }).toBe(before + 1);
    expect(searchesSent()).toBe(1);
    await search.summary.waitFor();
    expect(await browser.page.getByTestId('search-empty').count()).toBe(0);
  });

  it('Enter runs from every field of the search, the number of records and the closed Search type list too; Tab goes from a list field to the next field', async () => {
    const focused = () =>
      browser.page
        .locator(':focus')
        .getAttribute('data-testid', { timeout: 500 })
        .catch(() => null);
    // Tab from a country field (its list open) goes on to the next field, not into the list.
    await search.field('filter-importer_countries-input').focus();
    await browser.page.getByTestId('filter-importer_countries-options').waitFor();
    await browser.page.keyboard.press('Tab');
    await expect.poll(focused).toBe('filter-exporter_countries-input');
    await browser.page.keyboard.press('Escape');

    // Each run asks another number of records: the same question again would be offered from the Library.
    let before = await answers();
    await search.field('search-size-input').fill('12');
    await search.field('search-size-input').press('Enter');
    await expect.poll(answers).toBe(before + 1);

    if ((await search.field('filter-more-toggle').getAttribute('aria-expanded')) !== 'true')
      await search.field('filter-more-toggle').click();
    const type = search.field('filter-search_type-input');
    await search.field('search-size-input').fill('13');
    before = await answers();
    await type.focus();
    await browser.page.keyboard.press('Enter');
    await expect.poll(answers).toBe(before + 1);
    expect(await type.getAttribute('aria-expanded')).toBe('false');
    // The list still opens from the keyboard, and Enter in it picks the option, running nothing.
    await type.focus();
    await browser.page.keyboard.press('Space');
    await expect.poll(() => type.getAttribute('aria-expanded')).toBe('true');
    await browser.page.keyboard.press('Escape');
    await expect.poll(() => type.getAttribute('aria-expanded')).toBe('false');
    // ↓ opens it and ↓ moves through its options (the list goes round). Under load the list has opened
    // with no option marked yet (CI), so ↓ is pressed until Importer is marked, each key once the list
    // shows the previous one's move; the marks are read from this list only.
    const typeList = browser.page
      .getByRole('listbox')
      .filter({ has: browser.page.getByRole('option', { name: 'Importer', exact: true }) });
    const marked = () =>
      typeList
        .locator('[data-combobox-selected]')
        .evaluateAll((options) => options.map((o) => o.textContent).join(', '));
    await browser.page.keyboard.press('ArrowDown');
    await expect.poll(() => type.getAttribute('aria-expanded')).toBe('true');
    await typeList.waitFor();
    for (let presses = 0; presses < 5 && (await marked()) !== 'Importer'; presses++) {
      const was = await marked();
      await browser.page.keyboard.press('ArrowDown');
      await expect.poll(marked, { timeout: 5000 }).not.toBe(was);
    }
    expect(await marked()).toBe('Importer');
    await browser.page.keyboard.press('Enter');
    await expect.poll(() => type.inputValue()).toBe('Importer');
    expect(await answers()).toBe(before + 1);
    await browser.page.keyboard.press('Escape');
  });

  it('the Search button keeps its colour and a readable label under the pointer, in light and dark', async () => {
    const colours = () =>
      search.runButton.evaluate((e) => {
        const s = e.ownerDocument.defaultView!.getComputedStyle(e);
        return { background: s.backgroundColor, text: s.color };
      });
    for (const colorScheme of ['light', 'dark'] as const) {
      await browser.page.emulateMedia({ colorScheme });
      await browser.page.mouse.move(0, 0);
      const idle = await colours();
      await search.runButton.hover();
      // Mantine darkens a filled button under the pointer: a shade of the same colour, not another one.
      await expect.poll(async () => (await colours()).background).not.toBe(idle.background);
      const hovered = await colours();
      expect(contrast(hovered.text, hovered.background), colorScheme).toBeGreaterThanOrEqual(3);
      expect(contrast(hovered.background, idle.background), colorScheme).toBeLessThan(1.5);
    }
    await browser.page.mouse.move(0, 0);
    await browser.page.emulateMedia({ colorScheme: 'light' });
  });

  it('a field reached by the keyboard shows the theme’s focus ring, as a button does, in light and dark', async () => {
    const ring = () =>
      browser.page.locator(':focus').evaluate((e) => {
        const s = e.ownerDocument.defaultView!.getComputedStyle(e);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor };
      });
    for (const colorScheme of ['light', 'dark'] as const) {
      await browser.page.emulateMedia({ colorScheme });
      await search.field('filter-reset').focus();
      await browser.page.keyboard.press('Shift+Tab');
      const button = await ring();
      await search.field('filter-importer_countries-input').focus();
      await browser.page.keyboard.press('Tab');
      expect(
        await search
          .field('filter-exporter_countries-input')
          .evaluate((e) => e === e.ownerDocument.activeElement),
      ).toBe(true);
      const field = await ring();
      expect(field.style, colorScheme).toBe('solid');
      expect(field.width, colorScheme).toBeGreaterThanOrEqual(2);
      // The same ring as the theme draws on a button.
      expect(field.color, colorScheme).toBe(button.color);
      await browser.page.keyboard.press('Escape');
    }
    await browser.page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows the first rows of the result without scrolling, the run bar still in view', async () => {
    await search.grid.locator('.ag-row[row-index="0"]').first().waitFor();
    const row = await search.grid.locator('.ag-row[row-index="2"]').first().boundingBox();
    const run = await search.runButton.boundingBox();
    expect(row && row.y + row.height <= 900 - 28).toBe(true);
    expect(run && run.y + run.height <= 900).toBe(true);
    await browser.screenshot('search-02-result-1440x900');
  });

  it('presets: save, find, rename in place with a double-click, reorder by dragging', async () => {
    for (const name of ['Exporters 2021-2025', 'Coffee', 'Steel']) {
      if (name === 'Coffee') await search.field('filter-product_detail-input').fill('coffee');
      if (name === 'Steel') await search.field('filter-product_detail-input').fill('steel');
      await search.savePreset(name);
    }
    expect(await search.presetNames()).toEqual(['Exporters 2021-2025', 'Coffee', 'Steel']);

    await browser.page.getByTestId('presets-search').fill('cof');
    await expect.poll(() => search.presetNames()).toEqual(['Coffee']);
    await browser.page.getByTestId('presets-search').fill('');

    await search.preset('Coffee').locator('[data-testid$="-load"]').dblclick();
    const input = browser.page.getByTestId(/^preset-\d+-rename-input$/);
    await input.fill('Coffee exporters');
    await input.press('Enter');
    await search.preset('Coffee exporters').waitFor();

    // Drag "Steel" onto the top half of the first row: it becomes first.
    await search
      .preset('Steel')
      .dragTo(search.preset('Exporters 2021-2025'), { targetPosition: { x: 40, y: 2 } });
    await expect
      .poll(() => search.presetNames())
      .toEqual(['Steel', 'Exporters 2021-2025', 'Coffee exporters']);
    await browser.screenshot('search-03-presets');
    expect(browser.errors).toEqual([]);
  });

  it('Enter in a country field takes the highlighted country, never one the analyst did not see marked', async () => {
    const input = search.field('filter-importer_countries-input');
    const options = browser.page.getByTestId('filter-importer_countries-options');
    const highlighted = options.locator('[role="option"][aria-selected="true"]');
    const codes = async () => (await search.tags('importer_countries')).map((t) => t.split(' ')[0]);
    await input.fill('ger');
    await expect.poll(() => highlighted.getAttribute('data-value')).toBe('DE');
    await input.press('Enter');
    expect(await codes()).toEqual(['DE']);

    // Germany chosen: "ger" still lists Algeria, Niger, Nigeria, none marked; Enter adds nothing.
    await input.fill('ger');
    await options.getByTestId('filter-importer_countries-option-DZ').waitFor();
    expect(await highlighted.count()).toBe(0);
    await browser.screenshot('search-04-country-nothing-highlighted');
    await input.press('Enter');
    expect(await codes()).toEqual(['DE']);
    expect(await input.inputValue()).toBe('');

    // Marked with the arrow keys, it is taken.
    await input.fill('ger');
    await input.press('ArrowDown');
    await expect.poll(() => highlighted.getAttribute('data-value')).toBe('DZ');
    await input.press('Enter');
    expect(await codes()).toEqual(['DE', 'DZ']);
    await search.removeTag('importer_countries', 1);
    await search.removeTag('importer_countries', 0);
    expect(browser.errors).toEqual([]);
  });

  it('an answer cut off after main announced its first rows: the previous result stays, with the error', async () => {
    await search.clearFilter();
    await search.setDates('2021-01-01', '2025-12-31');
    await search.setSize(1000);
    await search.runFresh();
    expect(await search.shownAndTotal()).toMatchObject({ shown: 1000 });
    const grid = search.grid.first();
    const shownBefore = await grid.getAttribute('data-dataset-id');
    const summaryBefore = await search.summary.textContent();
    expect(shownBefore).toBeTruthy();
    // The answer is cut in half: its first half (some 500 records) arrives, the rest never does.
    const heads: string[] = [];
    const stop = stack.host.events.listen((event, payload) => {
      if (event === 'shipments.head') heads.push((payload as { datasetId: string }).datasetId);
    });
    stack.sim.setFaults({ truncateRate: 1 });
    try {
      await search.runButton.click();
      const refetch = browser.page.getByTestId('search-saved-offer-refetch');
      const error = browser.page.getByTestId('search-error');
      await refetch.or(error).first().waitFor();
      if (await refetch.isVisible()) await refetch.click();
      await error.waitFor();
    } finally {
      stack.sim.setFaults(undefined);
      stop();
    }
    // Its first rows were read and announced before the cut showed: the window had them to show.
    expect(heads).toHaveLength(1);
    expect(heads[0]).not.toBe(shownBefore);
    expect(await browser.page.getByTestId('search-error').textContent()).toMatch(/ends early|cut off/i);
    expect(await grid.getAttribute('data-dataset-id')).toBe(shownBefore);
    expect(await search.summary.textContent()).toBe(summaryBefore);
    await browser.page.getByTestId('search-result-previous').waitFor();
    await search.setSize(10);
    expect(browser.errors).toEqual([]);
  });
});
