import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES } from '@shared/pages';
import { generateAccount } from '../../src/main/sim';
import { AnalysisPage } from './pages/analysis-page';
import { AppShell } from './pages/app-shell';
import { ExportDialog } from './pages/export-dialog';
import { FirmsWorkbench } from './pages/firms-workbench';
import { LibraryPage } from './pages/library-page';
import { ResolvedFirmsPage } from './pages/firms-page';
import { SearchWorkbench } from './pages/search-workbench';
import { SettingsPage } from './pages/settings-page';
import { WatchPage } from './pages/watch-page';
import { WelcomePage } from './pages/welcome-page';
import { launchBrowser, screenshotOnFailure, type Browser } from './support/browser';
import { cutOffControls, describeOverlaps, overlaps, visibleControls } from './support/layout';
import { ARTIFACTS_DIR } from './support/paths';
import { openConnected } from './support/connected';
import { startStack, type Stack } from './support/stack';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

/**
 * Every page at the two window sizes analysts use, in both colour schemes: no two visible controls
 * overlap, and a screenshot of each is kept (test-results/e2e/layout-*.png) to be looked at.
 */
describe('layout: every page at 1440×900 and 1024×700, light and dark', () => {
  let stack: Stack;
  let browser: Browser;
  let shell: AppShell;
  let allowanceStack: Stack | undefined;
  screenshotOnFailure(() => browser);
  const search = () => new SearchWorkbench(browser.page);

  /** Waits until nothing on the page is still moving (Mantine's transitions, the grid's first paint). */
  async function settle(): Promise<void> {
    // Run on the body element: this file is compiled without the DOM's global names.
    const body = browser.page.locator('body');
    await expect
      .poll(() =>
        body.evaluate(
          (b) =>
            b.ownerDocument
              .getAnimations()
              // A spinner turns for as long as its work runs: only what ends (a transition) is waited for.
              .filter(
                (a: { playState: string; effect: { getTiming(): { iterations?: number } } | null }) =>
                  a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity,
              ).length,
        ),
      )
      .toBe(0);
    await body.evaluate(
      (b) =>
        new Promise<void>((r) => {
          const win = b.ownerDocument.defaultView;
          win?.requestAnimationFrame(() => win.requestAnimationFrame(() => r()));
        }),
    );
  }

  async function check(name: string, scope?: string): Promise<string[]> {
    // The pointer rests where it shows no tooltip, as a user's would while reading.
    await browser.page.mouse.move(1, 1);
    await settle();
    await browser.page.screenshot({ path: join(ARTIFACTS_DIR, `layout-${name}.png`) });
    const found = overlaps(await visibleControls(browser.page, scope));
    return found.length ? [`${name}:\n${describeOverlaps(found)}`] : [];
  }

  /**
   * An open dialog at every size and scheme: looked at once its open transition has finished (a frame
   * caught mid fade-in shows nothing true), with `primary` in view without scrolling.
   */
  async function dialogEveryWay(name: string, primary: Locator): Promise<string[]> {
    const dialog = browser.page.getByRole('dialog');
    await dialog.waitFor();
    await expect
      .poll(() =>
        dialog.evaluate((d) => {
          const style = d.ownerDocument.defaultView?.getComputedStyle(d);
          return style?.opacity === '1' && d.getAnimations({ subtree: true }).length === 0;
        }),
      )
      .toBe(true);
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        problems.push(...(await check(`${name}-${size.width}x${size.height}-${colorScheme}`)));
        const box = await primary.boundingBox();
        expect(box && box.y >= 0 && box.y + box.height <= size.height, `${name}: primary in view`).toBe(true);
      }
    }
    return problems;
  }

  /**
   * The filters in a scrolling field area whose label shows while their input is cut off by the
   * area's edge (a label seen without its input is a clipped control).
   */
  async function cutFilters(area: Locator, where: string): Promise<string[]> {
    await settle();
    const cut = await area.evaluate((box) => {
      const outer = box.getBoundingClientRect();
      const found: string[] = [];
      const labels: (typeof box)[] = Array.from(box.querySelectorAll('label[for]'));
      for (const label of labels) {
        const l = label.getBoundingClientRect();
        const input = box.ownerDocument.getElementById(label.getAttribute('for') ?? '');
        if (!input || l.height === 0) continue;
        const i = input.getBoundingClientRect();
        const labelShows = l.bottom > outer.top + 1 && l.top < outer.bottom - 1;
        const inputShows = i.bottom > outer.top + 1 && i.top < outer.bottom - 1;
        const inputWhole = i.top >= outer.top - 1 && i.bottom <= outer.bottom + 1;
        const labelWhole = l.top >= outer.top - 1 && l.bottom <= outer.bottom + 1;
        if ((labelShows || inputShows) && !(labelWhole && inputWhole))
          found.push(
            `"${(label.textContent ?? '').trim()}": label ${Math.round(l.top)}–${Math.round(l.bottom)}, ` +
              `input ${Math.round(i.top)}–${Math.round(i.bottom)}, area ${Math.round(outer.top)}–${Math.round(outer.bottom)}`,
          );
      }
      return found;
    });
    return cut.map((c) => `${where}: ${c}`);
  }

  beforeAll(async () => {
    stack = await startStack({ records: 0 });
    browser = await launchBrowser();
    shell = new AppShell(browser.page);
  });

  afterAll(async () => {
    await browser?.close();
    await allowanceStack?.close();
    await stack?.close();
  });

  it('the welcome screen', async () => {
    await shell.open(stack.host.url);
    const welcome = new WelcomePage(browser.page);
    await welcome.root.waitFor();
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        problems.push(...(await check(`welcome-${size.width}x${size.height}-${colorScheme}`)));
        const box = await browser.page.getByTestId('welcome-demo').boundingBox();
        expect(box && box.y + box.height <= size.height).toBe(true);
      }
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it('every page of the demo workspace, with a search result shown', async () => {
    await browser.page.emulateMedia({ colorScheme: 'light' });
    await browser.page.setViewportSize(SIZES[0]);
    await new WelcomePage(browser.page).tryDemo();
    const search = new SearchWorkbench(browser.page);
    await search.root.waitFor({ timeout: 60_000 });
    await search.setSize(50);
    await search.runFresh();

    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        for (const { id } of PAGES) {
          await shell.navigate(id);
          // The page is looked at with its content, not while it is still computing.
          if (id === 'analysis') await new AnalysisPage(browser.page).waitForSummaries();
          problems.push(...(await check(`${id}-${size.width}x${size.height}-${colorScheme}`)));
          if (id === 'analysis') {
            // The first rows of the first summary need no scrolling either.
            const row = await browser.page.getByTestId('analysis-row-importers-2').boundingBox();
            expect(row && row.y + row.height <= size.height).toBe(true);
            // The Firms choice sits under its label, as Dataset and Measure sit under theirs.
            const label = (await browser.page.locator('#analysis-firms-label').boundingBox())!;
            const choice = (await browser.page.getByTestId('analysis-firms').boundingBox())!;
            expect(label.y + label.height, 'Firms label above its choice').toBeLessThanOrEqual(choice.y + 1);
          }
          if (id === 'search') {
            // The primary action and the first rows of the result need no scrolling.
            const run = await search.runButton.boundingBox();
            expect(run && run.y + run.height <= size.height).toBe(true);
            // The grid's tools sit together on one line, ending at the grid's right edge.
            const tools = await Promise.all(
              ['search-quick-filter', 'export-open', 'shipments-columns-toggle'].map(
                async (t) => (await browser.page.getByTestId(t).boundingBox())!,
              ),
            );
            const middles = tools.map((b) => b.y + b.height / 2);
            expect(
              Math.max(...middles) - Math.min(...middles),
              `tools on one line at ${size.width}`,
            ).toBeLessThan(4);
            // …at most one line under the summary, so the result's header leaves the rows their room.
            const summary = (await search.summary.boundingBox())!;
            expect(tools[0]!.y - summary.y, `result header at ${size.width}`).toBeLessThan(50);
            const grid = (await search.grid.boundingBox())!;
            const last = tools[2]!;
            expect(Math.abs(last.x + last.width - (grid.x + grid.width))).toBeLessThan(3);
            // The rows' "Parties" buttons are drawn in the primary colour in either scheme, never white.
            const [r, , b] = await browser.page
              .getByTestId('shipment-parties-0')
              .evaluate((e) =>
                (e.ownerDocument.defaultView?.getComputedStyle(e).color ?? '').match(/\d+/g)!.map(Number),
              );
            expect(b! - r!, `Parties in the primary colour (${colorScheme})`).toBeGreaterThan(100);
          }
        }
      }
    }
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('the saved-copy offer on Search: dismissed from its first line, the first rows still in view', async () => {
    await shell.navigate('search');
    // The same question again: the library answers before the account pays twice.
    await search().runButton.click();
    const offer = browser.page.getByTestId('search-saved-offer');
    await offer.waitFor();
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        const name = `search-offer-${size.width}x${size.height}-${colorScheme}`;
        problems.push(...(await check(name)));
        const text = (await browser.page.getByTestId('search-saved-offer-text').boundingBox())!;
        const dismiss = (await browser.page.getByTestId('search-saved-offer-dismiss').boundingBox())!;
        const box = (await offer.boundingBox())!;
        // The dismiss button sits on the sentence's first line at the offer's right, not on a line of its own.
        if (Math.abs(dismiss.y - text.y) > 8 || dismiss.x < text.x + text.width)
          problems.push(`${name}: the dismiss button is not on the offer's first line`);
        if (box.x + box.width - (dismiss.x + dismiss.width) > 24)
          problems.push(`${name}: the dismiss button is not at the offer's right`);
        const row = await search().grid.locator('.ag-row[row-index="2"]').boundingBox();
        if (!row || row.y + row.height > size.height) problems.push(`${name}: the third row needs scrolling`);
      }
    }
    await browser.page.getByTestId('search-saved-offer-dismiss').click();
    await offer.waitFor({ state: 'detached' });
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('the Search page with "More filters" open and a preset saved', async () => {
    await shell.navigate('search');
    await search().savePreset('Layout check');
    await browser.page.getByTestId('filter-more-toggle').click();
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        problems.push(...(await check(`search-more-${size.width}x${size.height}-${colorScheme}`)));
        // The run bar stays in view: the fields scroll inside the panel.
        const run = await search().runButton.boundingBox();
        expect(run && run.y + run.height <= size.height).toBe(true);
        problems.push(
          ...(await cutFilters(
            browser.page.getByTestId('search-filter-scroll'),
            `Search ${size.width}x${size.height} ${colorScheme}`,
          )),
        );
      }
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it("HS code entries with long descriptions: each whole within its field's column, its remove button in reach", async () => {
    await shell.navigate('search');
    const page = browser.page;
    await search().typeHsCode('847130');
    await search().typeHsCode('12a');
    const field = page.getByTestId('filter-hs_codes');
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await page.setViewportSize(size);
        const name = `search-hs-tags-${size.width}x${size.height}-${colorScheme}`;
        problems.push(...(await check(name)));
        const column = (await field.boundingBox())!;
        for (const i of [0, 1]) {
          const remove = (await page.getByTestId(`filter-hs_codes-remove-${i}`).boundingBox())!;
          if (remove.x + remove.width > column.x + column.width + 1)
            problems.push(
              `${name}: entry ${i}'s remove button ends at ${Math.round(remove.x + remove.width)}, ` +
                `past its field's column (${Math.round(column.x + column.width)})`,
            );
        }
      }
    }
    await search().removeTag('hs_codes', 1);
    await search().removeTag('hs_codes', 0);
    expect(await search().tags('hs_codes')).toEqual([]);
    expect(problems.join('\n\n')).toBe('');
  });

  it('a grid cell cut with an ellipsis shows its whole text on hover; a cell shown whole shows none', async () => {
    await shell.navigate('search');
    const page = browser.page;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize(SIZES[1]);
    const cells = search().grid.locator('.ag-row .ag-cell[col-id="importerName"]');
    await cells.first().waitFor();
    // The cells as the analyst sees them: which are cut (wider text than box), which whole.
    const shown = await cells.evaluateAll((els) =>
      els.map((e) => {
        const v = e.querySelector('.ag-cell-value') ?? e;
        return { cut: v.scrollWidth > v.clientWidth, text: (e.textContent ?? '').trim() };
      }),
    );
    const cut = shown.findIndex((c) => c.cut);
    const whole = shown.findIndex((c) => !c.cut && c.text !== '');
    expect(cut, 'a cut importer name among the first rows at 1024').toBeGreaterThanOrEqual(0);
    const tooltip = page.locator('.ag-tooltip');
    await cells.nth(cut).hover();
    await expect.poll(() => tooltip.textContent()).toBe(shown[cut]!.text);
    await page.screenshot({ path: join(ARTIFACTS_DIR, 'layout-search-cut-cell-1024x700-light.png') });
    await page.mouse.move(1, 1);
    await tooltip.waitFor({ state: 'detached' });
    if (whole >= 0) {
      await cells.nth(whole).hover();
      await page.waitForTimeout(1200);
      expect(await tooltip.count(), 'no tooltip over a cell shown whole').toBe(0);
      await page.mouse.move(1, 1);
    }
  });

  it("the Search result's column chooser: inside the window, its rows whole, nothing overlapping", async () => {
    await shell.navigate('search');
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        await search().openChooser();
        const name = `search-columns-${size.width}x${size.height}-${colorScheme}`;
        problems.push(...(await check(name, '[data-testid="shipments-columns"]')));
        const { outsideWindow, cut } = await cutOffControls(
          browser.page,
          '[data-testid="shipments-columns"]',
        );
        if (outsideWindow) problems.push(`${name}: the chooser leaves the window`);
        if (cut.length) problems.push(`${name}: cut off at the chooser's edge:\n${cut.join('\n')}`);
        await search().closeChooser();
      }
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it("a shipment's parties in their drawer; Escape closes it", async () => {
    await shell.navigate('search');
    const panel = await search().openParties(0);
    const problems = await dialogEveryWay('search-parties', panel.getByTestId('party-importer-open'));
    await browser.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('the keyboard shortcuts list (Ctrl+/): whole in view, without scrolling', async () => {
    await shell.navigate('search');
    await browser.page.keyboard.press('Control+/');
    const list = browser.page.getByTestId('shortcuts-dialog');
    // Its last line, below every table, in view at each size and scheme.
    const problems = await dialogEveryWay('shortcuts', list.locator('p').last());
    await browser.page.keyboard.press('Escape');
    await list.waitFor({ state: 'detached' });
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('every tab of Analysis and the firm profile drawer', async () => {
    const analysis = new AnalysisPage(browser.page);
    await shell.navigate('analysis');
    await analysis.waitForSummaries();
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        for (const tab of [
          'exporters',
          'months',
          'hs',
          'flows',
          'arrivalPorts',
          'unitValues',
          'compare',
        ] as const) {
          await analysis.showTab(tab);
          if (tab === 'unitValues') {
            // Looked at with its table, not while it computes.
            await browser.page
              .locator('[data-testid="analysis-unit-values"][data-loading="false"]')
              .waitFor();
            await browser.page.getByTestId('unit-values-row').first().waitFor();
          }
          problems.push(
            ...(await check(
              `analysis-${tab === 'arrivalPorts' ? 'ports' : tab}-${size.width}x${size.height}-${colorScheme}`,
            )),
          );
        }
        await analysis.openProfile('importers', 0);
        problems.push(...(await check(`analysis-profile-${size.width}x${size.height}-${colorScheme}`)));
        await analysis.closeProfile();
      }
    }
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('the Firms screens: a firm open beside the list, the merge confirmation, the review queue', async () => {
    // Enough shipments for firms written several ways and close calls in the review queue.
    await shell.navigate('search');
    await search().setSize(2000);
    await search().runFresh();
    const firms = new ResolvedFirmsPage(browser.page);
    await shell.navigate('firms');
    await firms.tab('firms');
    await firms.mergedOnly(true);
    await firms.total();
    await firms.open(0);
    const problems: string[] = [];
    /** Every size and scheme of the screen as it stands. */
    async function everyWay(name: string): Promise<void> {
      for (const colorScheme of SCHEMES) {
        await browser.page.emulateMedia({ colorScheme });
        for (const size of SIZES) {
          await browser.page.setViewportSize(size);
          problems.push(...(await check(`${name}-${size.width}x${size.height}-${colorScheme}`)));
        }
      }
    }
    await everyWay('firms-detail');
    // The first rows of the list and the detail's first section show without scrolling.
    const row = await firms.row(0).boundingBox();
    expect(row && row.y + row.height <= SIZES[1].height).toBe(true);

    await firms.tick(0);
    await firms.tick(1);
    await browser.page.getByTestId('firms-merge').click();
    await browser.page.getByRole('dialog').waitFor();
    await everyWay('firms-merge-confirm');
    await browser.page.keyboard.press('Escape');
    await browser.page.getByRole('dialog').waitFor({ state: 'hidden' });

    await firms.tab('review');
    await browser.page
      .locator('[data-testid="review-view"]:not([data-total=""])')
      .waitFor({ timeout: 60_000 });
    await everyWay('firms-review');
    const same = await browser.page.getByTestId('review-same').boundingBox();
    if (same) expect(same.y + same.height <= SIZES[1].height).toBe(true);
    await firms.tab('search');
    await everyWay('firms-search');
    await firms.tab('firms');
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it("the firm search's run bar: each cost on one line beside its button at either size", async () => {
    await shell.navigate('firms');
    const firms = new FirmsWorkbench(browser.page);
    await firms.show();
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        problems.push(...(await check(`firms-search-${size.width}x${size.height}-${colorScheme}`)));
        const cost = (await browser.page.getByTestId('firms-search-cost').boundingBox())!;
        const run = (await browser.page.getByTestId('firms-run').boundingBox())!;
        const lineHeight = await browser.page
          .getByTestId('firms-search-cost')
          .evaluate((e) => parseFloat(e.ownerDocument.defaultView?.getComputedStyle(e).lineHeight ?? '0'));
        expect(cost.height, `search cost on one line at ${size.width}`).toBeLessThan(lineHeight * 1.5);
        expect(Math.abs(cost.y + cost.height / 2 - (run.y + run.height / 2))).toBeLessThan(4);
        expect(cost.x + cost.width).toBeLessThanOrEqual(run.x);
      }
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it('the firm search with "More filters" open: each filter whole or scrolled away, the run bar in view', async () => {
    await shell.navigate('firms');
    const firms = new FirmsWorkbench(browser.page);
    await firms.show();
    const more = browser.page.getByTestId('filter-more-toggle');
    if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
    const fields = browser.page.getByTestId('firms-filter-scroll');
    const problems: string[] = [];
    for (const colorScheme of SCHEMES) {
      await browser.page.emulateMedia({ colorScheme });
      for (const size of SIZES) {
        await browser.page.setViewportSize(size);
        await fields.evaluate((b) => b.scrollTo({ top: 0 }));
        problems.push(...(await check(`firms-search-more-${size.width}x${size.height}-${colorScheme}`)));
        const run = (await browser.page.getByTestId('firms-run').boundingBox())!;
        expect(run.y >= 0 && run.y + run.height <= size.height, `run bar in view at ${size.width}`).toBe(
          true,
        );
        // Before a search, what to do is read whole in what the fields leave, above the status bar.
        const words = (await browser.page
          .getByTestId('firms-search-empty')
          .getByText(/one page at a time, and are kept in the Library/)
          .boundingBox())!;
        const statusBar = (await browser.page.getByTestId('status-bar').boundingBox())!;
        expect(words.y + words.height, `empty state's words in view at ${size.width}`).toBeLessThanOrEqual(
          statusBar.y,
        );
        problems.push(
          ...(await cutFilters(fields, `${size.width}x${size.height} ${colorScheme}, at the top`)),
        );
        // Scrolled by the wheel as an analyst would: the fields stop at a field's top.
        if (await fields.evaluate((b) => b.scrollHeight > b.clientHeight)) {
          await fields.hover();
          await browser.page.mouse.wheel(0, 40);
          // A wheel scroll glides and then snaps: looked at once it has come to rest.
          let last = -1;
          for (let top = await fields.evaluate((b) => b.scrollTop); top !== last;) {
            last = top;
            await browser.page.waitForTimeout(200);
            top = await fields.evaluate((b) => b.scrollTop);
          }
          await browser.page.mouse.move(1, 1);
          problems.push(
            ...(await cutFilters(fields, `${size.width}x${size.height} ${colorScheme}, scrolled`)),
          );
        }
      }
    }
    expect(problems.join('\n')).toBe('');
    await more.click();
  });

  it('the Library with a dataset open: the list beside it, its header unfolded, its grid filling the window', async () => {
    const library = new LibraryPage(browser.page);
    await shell.navigate('library');
    await library.open('Shipments · all');
    const problems: string[] = [];
    for (const unfolded of [false, true]) {
      if (unfolded) await library.editHeader();
      for (const colorScheme of SCHEMES) {
        await browser.page.emulateMedia({ colorScheme });
        for (const size of SIZES) {
          await browser.page.setViewportSize(size);
          const name = `library-open${unfolded ? '-header' : ''}-${size.width}x${size.height}-${colorScheme}`;
          problems.push(...(await check(name)));
          // The first rows of the open dataset need no scrolling, and the grid reaches the page's foot.
          const firstRow = await library.grid.locator('.ag-row[row-index="2"]').boundingBox();
          expect(firstRow && firstRow.y + firstRow.height <= size.height).toBe(true);
          const grid = await library.grid.boundingBox();
          expect(grid && grid.y + grid.height > size.height - 120).toBe(true);
        }
      }
    }
    expect(problems.join('\n\n')).toBe('');
  });

  it('the Export dialog done in the browser: the file downloaded, the link to download it again', async () => {
    const library = new LibraryPage(browser.page);
    await shell.navigate('library');
    await library.open('Shipments · all');
    const dialog = new ExportDialog(browser.page, browser.page.getByTestId('library-detail'));
    await dialog.openDialog();
    await dialog.chooseFormat('xlsx');
    const name = await dialog.chooseFile();
    await dialog.startAndDownload();
    await dialog.waitForStep('done');
    expect((await dialog.outcome()).message).toContain(`your browser downloaded the file as ${name}`);
    const again = browser.page.getByTestId('export-download');
    expect(await again.innerText()).toBe(`Download ${name} again`);
    const problems = await dialogEveryWay('export-done', again);
    await dialog.close();
    // The job's "done" notification closes by itself after a few seconds: the next screens are looked
    // at without it, as the analyst sees them once it has gone.
    await expect
      .poll(() => browser.page.locator('.mantine-Notification-root').count(), { timeout: 20_000 })
      .toBe(0);
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it('Settings: profiles with a connection tested, a form with errors, editing, a key and secret, the delete confirmation, no profiles', async () => {
    const settings = new SettingsPage(browser.page);
    const page = browser.page;
    await shell.navigate('settings');
    const demo = (await page.getByTestId('profile-card').first().getAttribute('data-profile-name')) as string;
    await settings.testConnection(demo);
    await settings.createProfile({
      name: 'Customs desk',
      baseUrl: 'https://api.example.com/',
      accountName: 'main',
    });
    const problems: string[] = [];
    /**
     * Every size and scheme of a state, opened afresh at each (`open`, then `close`): the state's
     * primary action is in view as it opens, without scrolling.
     */
    async function everyWay(
      name: string,
      primary: string,
      open?: () => Promise<void>,
      close?: () => Promise<void>,
    ): Promise<void> {
      for (const colorScheme of SCHEMES) {
        await page.emulateMedia({ colorScheme });
        for (const size of SIZES) {
          await page.setViewportSize(size);
          await open?.();
          problems.push(...(await check(`${name}-${size.width}x${size.height}-${colorScheme}`)));
          const box = await page.getByTestId(primary).boundingBox();
          expect(box && box.y >= 0 && box.y + box.height <= size.height, `${name}: ${primary}`).toBe(true);
          await close?.();
        }
      }
    }
    const cancel = (testId: string) => async () => {
      await page.getByTestId(testId).click();
      await page.getByTestId(testId).waitFor({ state: 'detached' });
    };
    await everyWay('settings-profiles', 'profile-new');
    await everyWay(
      'settings-new-errors',
      'profile-save',
      async () => {
        await settings.submitNewProfile({ name: ' ', baseUrl: 'ftp:/nowhere' });
        await settings.fieldError('profile-base-url').waitFor();
      },
      cancel('profile-cancel'),
    );
    // Fields side by side keep their inputs on one line, a hint (API secret, Account name) under its input.
    await settings.submitNewProfile({ name: ' ', baseUrl: 'ftp:/nowhere' });
    for (const [left, right] of [
      ['profile-name', 'profile-account-name'],
      ['profile-api-key', 'profile-api-secret'],
    ] as const) {
      const a = (await page.getByTestId(left).boundingBox())!;
      const b = (await page.getByTestId(right).boundingBox())!;
      expect(Math.abs(a.y - b.y), `${left} and ${right} on one line`).toBeLessThan(2);
    }
    await cancel('profile-cancel')();
    await everyWay(
      'settings-editing',
      'profile-save',
      () => settings.card('Customs desk').getByTestId('profile-edit').click(),
      cancel('profile-cancel'),
    );
    await everyWay(
      'settings-credentials',
      'credentials-save',
      () => settings.card('Customs desk').getByTestId('profile-credentials').click(),
      cancel('credentials-cancel'),
    );
    await everyWay(
      'settings-delete-confirm',
      'profile-delete-yes',
      () => settings.askDelete('Customs desk'),
      async () => {
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'hidden' });
      },
    );

    await settings.deleteProfile('Customs desk');
    await settings.deleteProfile(demo);
    await page.getByTestId('profiles-empty').waitFor();
    await everyWay('settings-empty', 'profile-new');
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });

  it("the Watched page's dialog for a new watch: the HS-code allowance line within it and past it", async () => {
    // The demo account has no HS-code allowance: an account that may search two distinct codes shows the line.
    allowanceStack = await startStack({
      records: 500,
      account: { ...generateAccount('e2e-account'), limits: { searchedHsCodes: 2 } },
    });
    shell = await openConnected(browser, allowanceStack);
    await shell.navigate('search');
    await search().typeHsCode('8471');
    await search().savePreset('One code');
    await search().typeHsCode('7208');
    await search().typeHsCode('0901');
    await search().savePreset('Three codes');
    await shell.navigate('watched');
    const watch = new WatchPage(browser.page);
    const line = browser.page.getByTestId('watch-refresh-hs-codes');
    const confirm = browser.page.getByTestId('watch-refresh-confirm');
    const problems: string[] = [];

    // Within the allowance: the line, then the cost table and the primary action.
    await watch.watchPreset('One code');
    await line.waitFor();
    expect(await line.getAttribute('data-state')).not.toBe('exceeds');
    await browser.page.getByTestId('watch-refresh-windows').waitFor();
    problems.push(...(await dialogEveryWay('watched-refresh-hs-codes', confirm)));
    await browser.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });

    // Past it: the refusal in place of the cost, the action disabled but in view.
    const select = browser.page.getByTestId('watch-preset');
    const option = select.locator('option', { hasText: 'Three codes' });
    await select.selectOption((await option.getAttribute('value')) ?? '');
    await browser.page.getByTestId('watch-preset-start').click();
    await line.waitFor();
    expect(await line.getAttribute('data-state')).toBe('exceeds');
    problems.push(...(await dialogEveryWay('watched-refresh-hs-codes-exceeded', confirm)));
    await browser.page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(problems.join('\n\n')).toBe('');
    expect(browser.errors).toEqual([]);
  });
});
