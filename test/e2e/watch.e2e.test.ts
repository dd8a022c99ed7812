import type { ShipmentRecord } from '@shared/spec';
import { describe, expect, it } from 'vitest';
import { SearchWorkbench } from './pages/search-workbench';
import { WatchPage } from './pages/watch-page';
import { CommandPalette } from './pages/command-palette';
import { LibraryPage } from './pages/library-page';
import { useConnectedApp } from './support/app-in-browser';
import { serviceUsage } from './support/stack';

const app = useConnectedApp({
  stack: { records: 3_000 },
  prepare: (stack) => stack.sim.setAsOf('2025-06-01'),
});

/** The query's records as the service holds them on its day, from the data itself. */
function published(from = '2025-01-01'): Map<string, ShipmentRecord> {
  const { stack } = app;
  const asOf = stack.sim.asOf()!;
  const out = new Map<string, ShipmentRecord>();
  for (let i = 0; i < stack.sim.dataset.size; i++) {
    if (stack.sim.dataset.publishedOn(i) > asOf) continue;
    const r = stack.sim.dataset.record(i);
    if (r.arrivalDate >= from && r.arrivalDate <= '2025-12-31') out.set(r.hashId, r);
  }
  return out;
}

async function charged(): Promise<number> {
  const { stack } = app;
  return (await serviceUsage(stack))['shipments/search']!.current;
}

describe('a watched query in the app', () => {
  it('watches a preset, refreshes it at the previewed cost and shows what changed', async () => {
    const { stack, browser, shell } = app;
    await shell.navigate('search');
    const search = new SearchWorkbench(browser.page);
    await search.setDates('2025-01-01', '2025-12-31');
    await search.savePreset('All of 2025');
    await shell.navigate('watched');
    const watch = new WatchPage(browser.page);

    const before0 = await charged();
    await watch.watchPreset('All of 2025');
    const first = await watch.previewedDownloads();
    await watch.confirmWithEnter();
    const held = published();
    expect((await charged()) - before0).toBe(first + 10);
    const rows1 = await watch.snapshotRows(1);
    expect(rows1).toHaveLength(1);
    expect(rows1[0]![2]).toBe(held.size.toLocaleString('en-US'));
    expect(rows1[0]![7]).toMatch(/complete/i);

    // The service grows (days later); then Refresh… and Escape on its cost: nothing is fetched beyond
    // the check, the focus is back on Refresh….
    stack.sim.advance(20);
    const now = published();
    const added = [...now.keys()].filter((h) => !held.has(h));
    const refreshButton = browser.page.getByTestId('watch-refresh');
    const beforeEscape = await charged();
    await refreshButton.click();
    await watch.refreshStartedElsewhere();
    await browser.page.keyboard.press('Escape');
    await browser.page.getByTestId('watch-refresh-confirm').waitFor({ state: 'detached' });
    await refreshButton.and(browser.page.locator(':focus')).waitFor({ timeout: 5_000 });
    expect((await charged()) - beforeEscape).toBeLessThanOrEqual(10);
    expect(await watch.snapshotRows(1)).toHaveLength(1);

    const before1 = await charged();
    // From another page, through the command palette, as a weekly check would start.
    await shell.navigate('library');
    const palette = new CommandPalette(browser.page);
    await palette.openByKey();
    await palette.run('Refresh All of 2025');
    await watch.refreshStartedElsewhere();
    expect(await shell.currentPage()).toBe('watched');
    const previewed = await watch.previewedDownloads();
    const afterCheck = await charged();
    await watch.confirmWithEnter();
    expect((await charged()) - afterCheck).toBe(previewed);
    // The same check again: answered by the one Escape closed, nothing spent twice.
    expect(afterCheck - before1).toBe(0);
    const rows2 = await watch.snapshotRows(2);
    expect(rows2).toHaveLength(2);
    expect(rows2[0]![0]).toBe('2');
    expect(rows2[0]![2]).toBe(now.size.toLocaleString('en-US'));
    expect(rows2[0]![3]).toBe(added.length.toLocaleString('en-US'));
    expect(await watch.changesSummary()).toContain(
      `${added.length.toLocaleString('en-US')} shipments arrived`,
    );

    for (const colorScheme of ['light', 'dark'] as const) {
      await browser.page.emulateMedia({ colorScheme });
      for (const [w, h] of [
        [1440, 900],
        [1024, 700],
      ] as const) {
        await browser.page.setViewportSize({ width: w, height: h });
        await browser.page.getByTestId('watch-refresh').waitFor();
        await browser.screenshot(`watch-page-${w}x${h}-${colorScheme}`);
      }
    }

    // A change row opens its arrived shipments in the Library.
    await browser.page.getByTestId('watch-changes-row').first().click();
    await browser.page.getByTestId('library-page').waitFor();
  });

  it('watches a dataset of the library (its rows the first snapshot, nothing downloaded) and refreshes only what is new', async () => {
    const { stack, browser, shell } = app;
    const search = new SearchWorkbench(browser.page);
    const library = new LibraryPage(browser.page);
    const watch = new WatchPage(browser.page);
    const palette = new CommandPalette(browser.page);
    const name = 'Shipments · 2025-03-01…2025-12-31';
    await shell.navigate('search');
    await search.clearFilter();
    await search.setDates('2025-03-01', '2025-12-31');
    await search.setSize(10_000);
    await search.runFresh();
    const held = published('2025-03-01');
    expect((await search.shownAndTotal()).total).toBe(held.size);

    // From the open dataset's header.
    await shell.navigate('library');
    await library.open(name);
    const before = await charged();
    await library.watch();
    expect(await shell.currentPage()).toBe('watched');
    await browser.page.getByTestId('watch-name').filter({ hasText: name }).waitFor();
    const rows1 = await watch.snapshotRows(1);
    expect(rows1).toHaveLength(1);
    expect(rows1[0]![2]).toBe(held.size.toLocaleString('en-US'));
    expect(rows1[0]![6]).toBe('0');
    expect(rows1[0]![7]).toMatch(/complete/i);
    expect(await charged()).toBe(before);
    // The header now leads to the watch instead.
    await shell.navigate('library');
    await library.open(name);
    await browser.page.locator('[data-testid="library-watch"][data-state="watched"]').waitFor();

    // From the command palette: another search's dataset.
    await shell.navigate('search');
    await search.setDates('2025-05-01', '2025-12-31');
    await search.runFresh();
    await shell.navigate('library');
    await library.row('Shipments · 2025-05-01…2025-12-31').waitFor();
    const beforePalette = await charged();
    await palette.openByKey();
    const second = await library.idOf('Shipments · 2025-05-01…2025-12-31');
    await palette.runOnceListed('Watch Shipments · 2025-05-01…2025-12-31', `watch-dataset-${second}`);
    await browser.page
      .getByTestId('watch-name')
      .filter({ hasText: 'Shipments · 2025-05-01…2025-12-31' })
      .waitFor();
    expect(await watch.snapshotRows(1)).toHaveLength(1);
    expect(await charged()).toBe(beforePalette);

    // The service grows; the refresh of the library's dataset fetches only what is new, at its previewed cost.
    stack.sim.advance(15);
    const now = published('2025-03-01');
    const added = [...now.keys()].filter((h) => !held.has(h));
    expect(added.length).toBeGreaterThan(0);
    await palette.openByKey();
    await palette.run(`Refresh ${name}`);
    await watch.refreshStartedElsewhere();
    const previewed = await watch.previewedDownloads();
    const afterCheck = await charged();
    await watch.confirmWithEnter();
    expect((await charged()) - afterCheck).toBe(previewed);
    const rows2 = await watch.snapshotRows(2);
    expect(rows2[0]![0]).toBe('2');
    expect(rows2[0]![2]).toBe(now.size.toLocaleString('en-US'));
    expect(rows2[0]![3]).toBe(added.length.toLocaleString('en-US'));
    expect(rows2[0]![4]).toBe('0');
    // The dataset holds each record once: the overlap fetched again is de-duplicated.
    await browser.page.getByTestId('watch-open-library').click();
    expect(await library.waitForRows()).toBe(now.size);
  });
});
