import { readFile } from 'node:fs/promises';
import type { ShipmentRecord } from '@shared/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisPage } from './pages/analysis-page';
import type { AppShell } from './pages/app-shell';
import { ResolvedFirmsPage } from './pages/firms-page';
import { LibraryPage } from './pages/library-page';
import { SearchWorkbench } from './pages/search-workbench';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const RECORDS = 3_000;

/**
 * Firms as an analyst works them, in Chromium over the browser host: a search saved from the simulator,
 * then its resolved firms checked against the simulator's truth (which spellings are one firm), a
 * firm's spellings, evidence and shipments, a merge and a split with their undo seen in Analysis, the
 * review queue worked with the keyboard, and the alias list exported and imported.
 */
describe('Firms: resolved firms, their evidence, merge and split, the review queue', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let firms: ResolvedFirmsPage;
  let analysis: AnalysisPage;
  let records: ShipmentRecord[];
  screenshotOnFailure(() => browser);

  /** The simulator's firm behind a firm code (its truth of which spellings are one firm). */
  const truthOf = (code: string) => stack.sim.dataset.firmByUrlCode(code)?.firmId;
  const errors = () => browser.errors.filter((e) => !/Failed to load resource/.test(e));

  beforeAll(async () => {
    stack = await startStack({ records: RECORDS });
    records = [...stack.sim.dataset.records()];
    browser = await launchBrowser();
    firms = new ResolvedFirmsPage(browser.page);
    analysis = new AnalysisPage(browser.page);
    shell = await openConnected(browser, stack);
    const search = new SearchWorkbench(browser.page);
    await shell.navigate('search');
    await search.setSize(RECORDS);
    await search.run();
    expect(await search.shownAndTotal()).toEqual({ shown: RECORDS, total: RECORDS });
    await browser.page.setViewportSize({ width: 1440, height: 900 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.close().catch(() => undefined);
  });

  it('lists the resolved firms; a firm shows its spellings, the evidence that joined them and its shipments', async () => {
    await shell.navigate('firms');
    const all = await firms.total();
    await firms.mergedOnly(true);
    const merged = await firms.total();
    expect(merged).toBeGreaterThan(0);
    expect(merged).toBeLessThan(all);

    const top = await firms.firmAt(0);
    expect(top.spellings).toBeGreaterThan(1);
    const detail = await firms.open(0);
    expect(await detail.getByTestId('firm-detail-name').textContent()).toBe(top.name);
    const names = await firms.spellings();
    expect(names).toHaveLength(top.spellings);
    // Every spelling is one firm of the simulator: its codes all lead to one truth.
    const codes = await detail
      .locator('[data-testid^="firm-spelling-code-"]')
      .evaluateAll((tds) => tds.map((td) => (td.textContent ?? '').trim()));
    expect(new Set(codes.map((c) => truthOf(c))).size).toBe(1);
    const truth = truthOf(codes[0]!)!;
    // Each spelling is linked, with the rule and what matched.
    const evidence = detail.locator('[data-testid^="firm-evidence-"][data-kind]');
    expect(await evidence.count()).toBeGreaterThanOrEqual(top.spellings - 1);
    expect(await detail.getByTestId('firm-evidence-rule-0').textContent()).toMatch(
      /same firm code|same tax id|same telephone|same e-mail|same web domain|same name|similar name/,
    );
    await browser.screenshot('firms-01-detail');

    // Its shipments: every row naming the firm as importer or exporter, by the simulator's truth.
    const open = detail.getByTestId('firm-detail-open-0');
    const truthRows = records.filter(
      (r) => truthOf(r.importerUrlCode) === truth || truthOf(r.exporterUrlCode) === truth,
    ).length;
    expect(Number(await open.getAttribute('data-rows'))).toBe(truthRows);
    expect(top.asImporter + top.asExporter).toBe(truthRows);
    await open.click();
    const library = new LibraryPage(browser.page);
    await browser.page.getByTestId('library-drill-label').filter({ hasText: top.name }).waitFor();
    expect(await library.waitForRows()).toBe(truthRows);
    expect(errors()).toEqual([]);
  });

  it('merges two firms after a confirmation, Analysis counts them as one at once, and Undo takes it back', async () => {
    // Analysis by resolved firm is open before the merge, as an analyst would have it.
    await analysis.open();
    await analysis.waitForSummaries();
    await analysis.setFirms('resolved');

    await shell.navigate('firms');
    await firms.mergedOnly(false);
    const all = await firms.total();
    const a = await firms.firmAt(0);
    const b = await firms.firmAt(1);
    // Tick one, find the other by searching its name: the first stays ticked across the search.
    await firms.tick(0);
    await firms.search(b.name);
    await firms.total();
    await firms.tickFirm(b.id);
    // The ticked list follows the tick as the page re-renders: wait for both.
    await expect
      .poll(() => browser.page.getByTestId('firms-marked-firm').allTextContents())
      .toEqual([expect.stringContaining(a.name), expect.stringContaining(b.name)]);
    await browser.page.getByTestId('firms-merge').click();
    const dialog = browser.page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(a.name);
    expect(await dialog.textContent()).toContain(b.name);
    await browser.screenshot('firms-02-merge-confirm');
    // Escape closes it without merging, the focus back on the Merge button; then the merge for real.
    const mergeButton = browser.page.getByTestId('firms-merge');
    await browser.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await mergeButton.and(browser.page.locator(':focus')).waitFor({ timeout: 5_000 });
    expect(await browser.page.getByTestId('firms-last-change').count()).toBe(0);
    expect(await browser.page.getByTestId('firms-marked-firm').count()).toBe(2);
    await mergeButton.click();
    expect(await firms.confirm()).toContain(`Merged 2 firms into “${a.name}”`);
    await firms.search('');
    await firms.waitForTotal(all - 1);
    // The ticks are gone with the merge.
    expect(await browser.page.getByTestId('firms-marked').count()).toBe(0);
    // The merged firm stays open: both firms' spellings, joined by the analyst's decision.
    const mergedId = [a.id, b.id].sort()[0]!;
    const detail = await firms.waitForDetail(mergedId);
    expect(await firms.spellings()).toHaveLength(a.spellings + b.spellings);
    expect(await detail.locator('[data-testid^="firm-evidence-"][data-kind="decision"]').count()).toBe(1);
    await browser.screenshot('firms-03-merged');

    // Analysis counts the two as one firm, under the merged firm's id, without being asked again.
    const role = a.asImporter + b.asImporter >= a.asExporter + b.asExporter ? 'importers' : 'exporters';
    const sum = role === 'importers' ? a.asImporter + b.asImporter : a.asExporter + b.asExporter;
    await analysis.open();
    await expect
      .poll(async () => (await analysis.rows(role)).find((r) => r.key === mergedId)?.shipments, {
        timeout: 30_000,
      })
      .toBe(sum);
    await browser.screenshot('firms-04-analysis-after-merge');

    await shell.navigate('firms');
    await browser.page.getByTestId('firms-undo').click();
    await firms.waitForTotal(all);
    await analysis.open();
    const alone = role === 'importers' ? a.asImporter : a.asExporter;
    await expect
      .poll(async () => (await analysis.rows(role)).find((r) => r.key === a.id)?.shipments, {
        timeout: 30_000,
      })
      .toBe(alone);
    await analysis.setFirms('asWritten');
    expect(errors()).toEqual([]);
  });

  it('splits a spelling off a firm into a firm of its own, and undoes it', async () => {
    await shell.navigate('firms');
    await firms.mergedOnly(true);
    const all = await firms.total();
    const top = await firms.firmAt(0);
    await firms.open(0);
    const names = await firms.spellings();
    await browser.page.getByTestId('firm-spelling-tick-1').check();
    // Escape closes the confirmation without splitting, the focus back on Split off…, the tick kept.
    const splitButton = browser.page.getByTestId('firm-split');
    await splitButton.click();
    await browser.page.getByRole('dialog').waitFor();
    await browser.page.keyboard.press('Escape');
    await browser.page.getByRole('dialog').waitFor({ state: 'hidden' });
    await splitButton.and(browser.page.locator(':focus')).waitFor({ timeout: 5_000 });
    expect(await firms.spellings()).toEqual(names);
    expect(await browser.page.getByTestId('firm-spelling-tick-1').isChecked()).toBe(true);
    await splitButton.click();
    expect(await firms.confirm()).toContain(`Split “${names[1]}” off “${top.name}”`);
    // The firm keeps the other spellings; the split-off one is a firm of one spelling (out of this view
    // when the firm had two).
    await expect
      .poll(async () => (await firms.spellings()).length, { timeout: 30_000 })
      .toBe(names.length - 1);
    expect(await firms.spellings()).not.toContain(names[1]);
    await firms.waitForTotal(names.length === 2 ? all - 1 : all);
    await browser.page.getByTestId('firms-undo').click();
    await firms.waitForTotal(all);
    await expect.poll(async () => (await firms.spellings()).length, { timeout: 30_000 }).toBe(names.length);
    expect(errors()).toEqual([]);
  });

  it('works the review queue with the keyboard: arrows move, A says one firm, R different firms', async () => {
    await shell.navigate('firms');
    await firms.tab('review');
    const view = browser.page.locator('[data-testid="review-view"]:not([data-total=""])');
    await view.waitFor({ timeout: 60_000 });
    const total = Number(await view.getAttribute('data-total'));
    expect(total).toBeGreaterThan(1);
    // The navigation counts the queue.
    expect(Number(await browser.page.getByTestId('nav-firms-count').getAttribute('data-count'))).toBe(total);
    await browser.screenshot('firms-05-review');

    const pair = browser.page.getByTestId('review-pair');
    const first = await pair.getAttribute('data-a');
    await browser.page.keyboard.press('ArrowDown');
    await expect.poll(() => browser.page.getByTestId('review-position').textContent()).toMatch(/^Pair 2 of/);
    await browser.page.keyboard.press('ArrowUp');
    await expect.poll(() => pair.getAttribute('data-a')).toBe(first);

    const a = ((await browser.page.getByTestId('review-a-name').textContent()) ?? '').trim();
    const b = ((await browser.page.getByTestId('review-b-name').textContent()) ?? '').trim();
    await browser.page.keyboard.press('a');
    await browser.page.getByTestId('review-last').filter({ hasText: 'are one firm' }).waitFor();
    // The pair leaves the queue, and so may others the new firm settles (a third spelling of it); the
    // navigation counts what the queue shows.
    const navCount = async () =>
      Number(await browser.page.getByTestId('nav-firms-count').getAttribute('data-count'));
    await expect
      .poll(async () => {
        const shownTotal = Number(await view.getAttribute('data-total'));
        return shownTotal < total && shownTotal === (await navCount());
      })
      .toBe(true);
    const left = Number(await view.getAttribute('data-total'));

    await browser.page.keyboard.press('r');
    await browser.page.getByTestId('review-last').filter({ hasText: 'are different firms' }).waitFor();
    await expect.poll(async () => Number(await view.getAttribute('data-total'))).toBeLessThan(left);

    // The accepted pair is one firm now.
    await firms.tab('firms');
    await firms.mergedOnly(false);
    await firms.search(a);
    await firms.total();
    await firms.open(0);
    const spellings = await firms.spellings();
    expect(spellings).toContain(a);
    expect(spellings).toContain(b);
    expect(errors()).toEqual([]);
  });

  it('exports the decisions as an alias list of names and codes, and imports it back', async () => {
    await shell.navigate('firms');
    await firms.tab('firms');
    await browser.page.getByTestId('firms-alias-menu').click();
    const [download] = await Promise.all([
      browser.page.waitForEvent('download'),
      browser.page.getByTestId('firms-alias-export').click(),
    ]);
    const text = await readFile((await download.path())!, 'utf8');
    const file = JSON.parse(text) as {
      format: string;
      decisions: { verdict: string; a: Record<string, string>; b: Record<string, string> }[];
    };
    expect(file.format).toBe('portolan-firm-aliases');
    // The review's two verdicts (the merge and the split were undone).
    expect(file.decisions.map((d) => d.verdict).sort()).toEqual(['different', 'same']);
    for (const d of file.decisions) expect(Object.keys(d.a).sort()).toEqual(['code', 'country', 'name']);
    await expect
      .poll(() => browser.page.getByTestId('firms-alias-notice').textContent())
      .toMatch(/^Saved 2 decisions as portolan-firm-aliases-.*\.json$/);

    await browser.page.getByTestId('firms-alias-menu').click();
    const [chooser] = await Promise.all([
      browser.page.waitForEvent('filechooser'),
      browser.page.getByTestId('firms-alias-import').click(),
    ]);
    await chooser.setFiles({ name: 'aliases.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await expect
      .poll(() => browser.page.getByTestId('firms-alias-notice').textContent())
      .toBe('aliases.json: added 0 decisions; 2 the library already had');
    expect(errors()).toEqual([]);
  });
});
