import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Download, Locator, Page } from 'playwright-core';
import { ARTIFACTS_DIR } from '../support/paths';

export type SummaryKind =
  'importers' | 'exporters' | 'months' | 'hs' | 'flows' | 'departurePorts' | 'arrivalPorts';

export const SUMMARY_KINDS: readonly SummaryKind[] = [
  'importers',
  'exporters',
  'months',
  'hs',
  'flows',
  'departurePorts',
  'arrivalPorts',
];

/** The tab that shows each summary (the two port summaries share one). */
const TAB_OF: Record<SummaryKind, string> = {
  importers: 'importers',
  exporters: 'exporters',
  months: 'months',
  hs: 'hs',
  flows: 'flows',
  departurePorts: 'ports',
  arrivalPorts: 'ports',
};

/** The little of the DOM read inside the page (the node-side tsconfig has no DOM types). */
interface DomNode {
  textContent: string | null;
  querySelector(selector: string): DomNode | null;
}
interface DomRow extends DomNode {
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): Iterable<DomNode>;
}

/** One row of a summary table as the user reads it. */
export interface ShownRow {
  key: string;
  label: string;
  shipments: number;
  usdFob: number | null;
}

const parseNumber = (s: string): number | null => {
  const t = s.replace(/[*,]/g, '').trim();
  return t === '' || t === '—' ? null : Number(t);
};

/**
 * Analysis → dataset chooser, one summary per tab (chart + table), firm profile (a drawer), snapshot
 * diff (the Compare datasets tab). Reading a summary opens its tab first, as the analyst would.
 */
export class AnalysisPage {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByTestId('analysis-page');
  }

  async open(): Promise<void> {
    await this.page.getByTestId('nav-analysis').click();
    await this.root.waitFor();
  }

  /** The dataset chooser's options (at least `atLeast` of them, once loaded): id and the text shown. */
  async datasets(atLeast = 1): Promise<{ id: string; text: string }[]> {
    await this.page
      .getByTestId('analysis-dataset')
      .locator(`option:nth-child(${atLeast})`)
      .waitFor({ state: 'attached' });
    const options = await this.page.getByTestId('analysis-dataset').locator('option').all();
    return Promise.all(
      options.map(async (o) => ({
        id: (await o.getAttribute('value')) ?? '',
        text: ((await o.textContent()) ?? '').trim(),
      })),
    );
  }

  /** Chooses a dataset and waits until every summary has its table and nothing is computing. */
  async choose(datasetId: string): Promise<void> {
    await this.page.getByTestId('analysis-dataset').selectOption(datasetId);
    await this.waitForSummaries();
  }

  /** Waits until the page has an answer for every summary (the page counts those still computing). */
  async waitForSummaries(): Promise<void> {
    await this.page.locator('[data-testid="analysis-page"][data-computing="0"]').waitFor();
    await this.page.getByTestId('analysis-tabs').waitFor();
  }

  /** Opens the tab of a summary, or `compare`, and waits until it is the selected one. */
  async showTab(tab: SummaryKind | 'compare' | 'unitValues'): Promise<void> {
    const id = tab === 'compare' || tab === 'unitValues' ? tab : TAB_OF[tab];
    const button = this.page.getByTestId(`analysis-tab-${id}`);
    if ((await button.getAttribute('aria-selected')) !== 'true') await button.click();
    await this.page.locator(`[data-testid="analysis-tab-${id}"][aria-selected="true"]`).waitFor();
  }

  section(kind: SummaryKind): Locator {
    return this.page.getByTestId(`analysis-section-${kind}`);
  }

  /** A summary's table; its tab must be open (see showTab). */
  table(kind: SummaryKind): Locator {
    return this.page.getByTestId(`analysis-table-${kind}`);
  }

  chart(kind: SummaryKind): Locator {
    return this.page.getByTestId(`analysis-chart-${kind}`);
  }

  /** The section's note, e.g. "3,000 shipments · 12 more not shown". */
  async totalText(kind: SummaryKind): Promise<string> {
    await this.showTab(kind);
    return ((await this.page.getByTestId(`analysis-total-${kind}`).textContent()) ?? '').trim();
  }

  /** Shows or hides the headings of an HS chapter in the HS table. */
  async toggleHsChapter(chapter: string): Promise<void> {
    await this.showTab('hs');
    const button = this.page.getByTestId(`analysis-hs-toggle-${chapter}`);
    const was = await button.getAttribute('aria-expanded');
    await button.click();
    await this.page
      .locator(
        `[data-testid="analysis-hs-toggle-${chapter}"][aria-expanded="${was === 'true' ? 'false' : 'true'}"]`,
      )
      .waitFor();
  }

  /** A screenshot of one section (chart and table) to test-results/e2e/analysis-section-<kind>.png. */
  async screenshotSection(kind: SummaryKind): Promise<string> {
    const path = join(ARTIFACTS_DIR, `analysis-section-${kind}.png`);
    await this.showTab(kind);
    // The page scrolls inside the app shell: a section taller than the window only shoots whole in a
    // window tall enough for it.
    const viewport = this.page.viewportSize();
    const box = await this.section(kind).boundingBox();
    if (viewport && box)
      await this.page.setViewportSize({
        width: viewport.width,
        height: Math.ceil(Math.max(viewport.height, box.height + 120)),
      });
    await this.section(kind).scrollIntoViewIfNeeded();
    await this.section(kind).screenshot({ path });
    if (viewport) await this.page.setViewportSize(viewport);
    return path;
  }

  /** Counts firms as written or resolved, and waits until the firm summaries are counted that way. */
  async setFirms(firms: 'asWritten' | 'resolved'): Promise<void> {
    await this.page
      .getByTestId('analysis-firms')
      .getByText(firms === 'resolved' ? 'Resolved' : 'As written', { exact: true })
      .click();
    await this.showTab('importers');
    await this.page.locator(`[data-testid="analysis-table-importers"][data-firms="${firms}"]`).waitFor();
    await this.waitForSummaries();
    await this.showTab('exporters');
    await this.page.locator(`[data-testid="analysis-table-exporters"][data-firms="${firms}"]`).waitFor();
    await this.showTab('importers');
  }

  /** Row `index` of a summary's table; its tab must be open (see showTab). */
  row(kind: SummaryKind, index: number): Locator {
    return this.page.getByTestId(`analysis-row-${kind}-${index}`);
  }

  /** Every row of a summary table: its key attribute, label (without detail), shipments and USD FOB. */
  async rows(kind: SummaryKind): Promise<ShownRow[]> {
    await this.showTab(kind);
    await this.table(kind).waitFor();
    const raw = await this.table(kind)
      .locator('tbody tr')
      .evaluateAll((trs) =>
        (trs as unknown as DomRow[]).map((tr) => {
          const cells = [...tr.querySelectorAll('td')];
          const first = cells[0];
          // The name, without the details that follow it (country, how many ways it is written).
          let label = first?.textContent ?? '';
          const details = first ? [...(first as DomRow).querySelectorAll('.analysis__detail')] : [];
          for (const d of details.reverse()) {
            const t = d.textContent ?? '';
            if (t && label.endsWith(t)) label = label.slice(0, label.length - t.length);
          }
          return {
            key: tr.getAttribute('data-key') ?? '',
            label: label.trim(),
            shipments: cells[1]?.textContent ?? '',
            usdFob: cells[2]?.textContent ?? '',
          };
        }),
      );
    return raw.map((r) => ({
      key: r.key,
      label: r.label,
      shipments: parseNumber(r.shipments) ?? Number.NaN,
      usdFob: parseNumber(r.usdFob),
    }));
  }

  /**
   * Clicks item `index` of a bar chart where it is drawn on the canvas, from the pixel positions the
   * chart publishes in `data-hit-points`.
   */
  async clickBar(kind: SummaryKind, index: number): Promise<void> {
    await this.showTab(kind);
    const chart = this.chart(kind);
    await chart.scrollIntoViewIfNeeded();
    const points = JSON.parse((await chart.getAttribute('data-hit-points')) ?? '[]') as [number, number][];
    const point = points[index];
    if (!point) throw new Error(`the ${kind} chart has no item ${index} (${points.length} items)`);
    const box = await chart.boundingBox();
    if (!box) throw new Error(`the ${kind} chart is not visible`);
    await this.page.mouse.click(box.x + point[0], box.y + point[1]);
  }

  private async saved(download: Download): Promise<{ name: string; bytes: Buffer }> {
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: await readFile(path) };
  }

  async downloadPng(kind: SummaryKind): Promise<{ name: string; bytes: Buffer }> {
    await this.showTab(kind);
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId(`analysis-png-${kind}`).click(),
    ]);
    return this.saved(download);
  }

  async downloadXlsx(kind: SummaryKind): Promise<{ name: string; bytes: Buffer }> {
    await this.showTab(kind);
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId(`analysis-xlsx-${kind}`).click(),
    ]);
    return this.saved(download);
  }

  /** The Unit values tab once its table is read: each shown row's cells as the analyst reads them. */
  async unitValueRows(): Promise<string[][]> {
    await this.showTab('unitValues');
    await this.page.locator('[data-testid="analysis-unit-values"][data-loading="false"]').waitFor();
    await this.page.getByTestId('unit-values-row').first().waitFor();
    const out: string[][] = [];
    for (const row of await this.page.getByTestId('unit-values-row').all())
      // The text itself, not as CSS shows it (a badge's text is drawn in capitals).
      out.push((await row.locator('td').allTextContents()).map((t) => t.trim()));
    return out;
  }

  /** Unit values → Export to Excel: the file the browser saved, kept under the test results as `saveAs`. */
  async downloadUnitValues(saveAs: string): Promise<{ name: string; path: string }> {
    await this.showTab('unitValues');
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByTestId('unit-values-xlsx').click(),
    ]);
    const path = join(ARTIFACTS_DIR, saveAs);
    await download.saveAs(path);
    return { name: download.suggestedFilename(), path };
  }

  get profile(): Locator {
    return this.page.getByTestId('analysis-profile');
  }

  /** Opens the firm profile of row `index` of the importers or exporters table. */
  async openProfile(kind: 'importers' | 'exporters', index: number): Promise<Locator> {
    await this.showTab(kind);
    await this.page.getByTestId(`analysis-profile-${kind}-${index}`).click();
    await this.page.getByTestId('analysis-profile-summary').waitFor();
    return this.profile;
  }

  /** Runs the snapshot diff of the chosen dataset (before) against `compareId` (after). */
  /** Closes the firm profile's drawer (as Escape would) and waits until it is gone. */
  async closeProfile(): Promise<void> {
    await this.page.getByRole('button', { name: 'Close the profile' }).click();
    await this.page.getByTestId('analysis-profile-summary').waitFor({ state: 'detached' });
  }

  async diff(compareId: string, role: 'importer' | 'exporter'): Promise<Locator> {
    await this.showTab('compare');
    await this.page.getByTestId('analysis-diff-compare').selectOption(compareId);
    await this.page.getByTestId('analysis-diff-role').selectOption(role);
    await this.page.getByTestId('analysis-diff-run').click();
    const counts = this.page.getByTestId('analysis-diff-counts');
    await counts.waitFor();
    return counts;
  }
}
