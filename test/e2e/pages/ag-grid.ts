import type { Locator, Page } from 'playwright-core';

/**
 * How long `rows()` goes on with no new row found and the body not moving before it gives up. It used
 * to give up after 500 rounds (~85 s), past the 90 s a test may take once its earlier steps are counted.
 */
const ROWS_STALL_MS = 5_000;

/**
 * One of the app's ag-grids (the `DataGrid` wrapper), worked the way a user works it: headers, the
 * resize handle, header drag, the filter popup, scrolling. Row data is read from the cells on screen.
 */
export class AgGrid {
  constructor(
    readonly page: Page,
    readonly root: Locator,
  ) {}

  header(colId: string): Locator {
    return this.root.locator(`.ag-header-cell[col-id="${colId}"]`);
  }

  /** Column-group captions in the order shown (left pinned, centre, right pinned). */
  async groupNames(): Promise<string[]> {
    return this.root
      .locator('.ag-header-group-cell .ag-header-group-text')
      .evaluateAll((els) => els.map((e) => (e.textContent ?? '').trim()).filter(Boolean));
  }

  /** Column ids in display order: pinned left, centre, pinned right. */
  async displayedColumns(): Promise<string[]> {
    return this.root.evaluate((root) => {
      const part = (sel: string) =>
        [...root.querySelectorAll(`.ag-header-row-column ${sel} .ag-header-cell[col-id]`)]
          .map((e) => ({ id: e.getAttribute('col-id') ?? '', left: e.getBoundingClientRect().left }))
          .sort((a, b) => a.left - b.left)
          .map((e) => e.id);
      return [
        ...part('.ag-grid-pinned-left-cells'),
        ...part('.ag-grid-scrolling-cells'),
        ...part('.ag-grid-pinned-right-cells'),
      ];
    });
  }

  async pinnedLeft(): Promise<string[]> {
    return this.root
      .locator('.ag-header-row-column .ag-grid-pinned-left-cells .ag-header-cell[col-id]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('col-id') ?? ''));
  }

  async width(colId: string): Promise<number> {
    const box = await this.header(colId).boundingBox();
    if (!box) throw new Error(`column ${colId} is not on screen`);
    return Math.round(box.width);
  }

  /** Drags the column's right-edge resize handle by `dx` pixels. */
  async resize(colId: string, dx: number): Promise<void> {
    const cell = this.header(colId);
    await cell.scrollIntoViewIfNeeded();
    const handle = cell.locator('.ag-header-cell-resize');
    await cell.hover();
    const box = await handle.boundingBox();
    if (!box) throw new Error(`no resize handle on ${colId}`);
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    for (let i = 1; i <= 5; i++) await this.page.mouse.move(x + (dx * i) / 5, y);
    await this.page.mouse.up();
  }

  /** Scrolls the grid back to its first (unpinned) column. */
  async scrollToStart(): Promise<void> {
    await this.root.evaluate((root) => {
      for (const el of root.querySelectorAll('.ag-body-horizontal-scroll-viewport, .ag-grid-viewport'))
        el.scrollLeft = 0;
    });
    await this.page.waitForTimeout(100);
  }

  /** Drags a header onto the left half of another header, as a user reorders columns. */
  async moveBefore(colId: string, targetColId: string): Promise<void> {
    const from = await this.header(colId).locator('.ag-header-cell-label').boundingBox();
    const to = await this.header(targetColId).boundingBox();
    if (!from || !to) throw new Error(`cannot drag ${colId} onto ${targetColId}`);
    const y = from.y + from.height / 2;
    await this.page.mouse.move(from.x + 10, y);
    await this.page.mouse.down();
    const tx = to.x + 4;
    const steps = 12;
    for (let i = 1; i <= steps; i++) {
      await this.page.mouse.move(from.x + 10 + ((tx - from.x - 10) * i) / steps, y);
      await this.page.waitForTimeout(20);
    }
    // ag-grid moves the column while hovering; give it a beat before the drop.
    await this.page.waitForTimeout(150);
    await this.page.mouse.up();
  }

  async clickHeader(colId: string): Promise<void> {
    await this.header(colId).locator('.ag-header-cell-label').click();
  }

  /**
   * Clicks a header and waits for the grid's answer to the new sort. The Search and Library grids read
   * their rows in blocks: the header shows the sort before the sorted rows arrive, so the wait is on the
   * grid's count of answered blocks (`data-answered`) and on nothing loading.
   */
  async sortBy(colId: string): Promise<void> {
    const answered = async () => Number(await this.root.getAttribute('data-answered'));
    const before = await answered();
    await this.clickHeader(colId);
    const end = Date.now() + 15_000;
    while (!((await answered()) > before && (await this.root.getAttribute('data-loading')) === 'false')) {
      if (Date.now() > end) throw new Error(`the grid did not answer the sort by ${colId} in time`);
      await this.page.waitForTimeout(25);
    }
    // The grid paints the answered block on its next frames.
    await this.page.waitForTimeout(100);
  }

  async sortOf(colId: string): Promise<string | null> {
    return this.header(colId).getAttribute('aria-sort');
  }

  async rowCount(): Promise<number> {
    return Number(await this.root.getAttribute('data-row-count'));
  }

  async shownCount(): Promise<number> {
    return Number(await this.root.getAttribute('data-shown-count'));
  }

  /**
   * Every displayed row (after the grid's filters and sort), as the text of the given columns: the
   * body is scrolled from top to bottom since only the rows in view are in the DOM. Throws, saying
   * which rows it could not find, once no new row has come and the body has not moved for
   * `ROWS_STALL_MS`: a caller polling for rows still being read asks again within its own timeout.
   */
  async rows(colIds: string[]): Promise<Record<string, string>[]> {
    const total = await this.shownCount();
    const byIndex = new Map<number, Record<string, string>>();
    // ag-grid 36: one `.ag-row` holds the pinned and the scrolling cells; `.ag-grid-viewport` scrolls.
    const scroll = (to: 'top' | 'down') =>
      this.root.evaluate((root, where) => {
        const v = root.querySelector('.ag-grid-viewport');
        if (!v) throw new Error('no .ag-grid-viewport');
        const before = v.scrollTop;
        v.scrollTop = where === 'top' ? 0 : before + v.clientHeight * 0.8;
        return v.scrollTop !== before;
      }, to);
    await scroll('top');
    let progressAt = Date.now();
    while (byIndex.size < total) {
      const seen = await this.root.evaluate((root, ids) => {
        const out: [number, Record<string, string>][] = [];
        for (const row of root.querySelectorAll('.ag-grid-scrolling-rows .ag-row[row-index]')) {
          const rec: Record<string, string> = {};
          for (const id of ids) rec[id] = (row.querySelector(`[col-id="${id}"]`)?.textContent ?? '').trim();
          out.push([Number(row.getAttribute('row-index')), rec]);
        }
        return out;
      }, colIds);
      const had = byIndex.size;
      for (const [i, r] of seen) byIndex.set(i, r);
      if (byIndex.size >= total) break;
      const moved = await scroll('down');
      if (moved || byIndex.size > had) progressAt = Date.now();
      else if (Date.now() - progressAt > ROWS_STALL_MS) break;
      // Let ag-grid render the rows scrolled into view (also when already at the bottom).
      await this.page.waitForTimeout(moved ? 50 : 150);
    }
    if (byIndex.size !== total) {
      const body = await this.root.evaluate((root) => {
        const v = root.querySelector('.ag-grid-viewport');
        return v
          ? `the body at ${v.scrollTop} of ${v.scrollHeight} px, ${v.clientHeight} px high`
          : 'no body';
      });
      const missing = [...Array(total).keys()].filter((i) => !byIndex.has(i));
      // Rows short of the count, or rows past it when the grid drew more than it counted.
      const what =
        missing.length > 0
          ? `${missing.length} missing (${missing[0]}–${missing.at(-1)})`
          : `${byIndex.size - total} past the count`;
      throw new Error(`read ${byIndex.size} of ${total} displayed rows: ${what}, ${body}`);
    }
    await scroll('top');
    return [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, r]) => r);
  }

  /** Opens the column's filter popup from its header and returns it. */
  async openFilter(colId: string): Promise<Locator> {
    const cell = this.header(colId);
    await cell.scrollIntoViewIfNeeded();
    await cell.hover();
    await cell.locator('.ag-header-cell-filter-button, .ag-header-cell-menu-button').first().click();
    const popup = this.page.locator('.ag-popup .ag-filter').last();
    await popup.waitFor();
    return popup;
  }

  /** In an open filter popup: picks the condition of the first row ("Greater than", "Before", …). */
  async chooseCondition(popup: Locator, label: string): Promise<void> {
    await popup.locator('.ag-filter-select .ag-picker-field-wrapper').first().click();
    await this.page.locator('.ag-select-list .ag-list-item').getByText(label, { exact: true }).click();
  }

  /**
   * Closes the open filter popup with Escape, pressed in the popup: ag-grid closes it on an Escape
   * inside it, and moves the focus there only a moment after it opens, so a key sent to the page at
   * once can miss it (seen on a loaded machine).
   */
  async closePopup(): Promise<void> {
    const popup = this.page.locator('.ag-popup .ag-filter');
    await popup.last().locator('input, button, [tabindex]').first().press('Escape');
    await popup.waitFor({ state: 'detached' });
  }

  /** The grid's test id: its status bar and record view are named after it. */
  private async testId(): Promise<string> {
    const id = await this.root.getAttribute('data-testid');
    if (!id) throw new Error('grid without data-testid');
    return id;
  }

  cell(rowIndex: number, colId: string): Locator {
    return this.root.locator(`.ag-row[row-index="${rowIndex}"] .ag-cell[col-id="${colId}"]`).first();
  }

  async status(): Promise<Locator> {
    return this.page.getByTestId(`${await this.testId()}-status`);
  }

  /** The selection's figures from the status bar (null when fewer than two cells are selected). */
  async selection(): Promise<{ cells: number; numbers: number; sum: string; average: string } | null> {
    const sel = this.page.getByTestId(`${await this.testId()}-selection`);
    if (!(await sel.isVisible())) return null;
    const id = await this.testId();
    const text = async (part: string) => {
      const el = this.page.getByTestId(`${id}-selection-${part}`);
      return (await el.isVisible()) ? ((await el.textContent()) ?? '').trim() : '';
    };
    return {
      cells: Number(await sel.getAttribute('data-cells')),
      numbers: Number(await sel.getAttribute('data-numbers')),
      sum: await text('sum'),
      average: await text('average'),
    };
  }

  /** Selects a block as a user does: click its first cell, Shift+click its last. */
  async selectBlock(from: [number, string], to: [number, string]): Promise<void> {
    await this.cell(from[0], from[1]).click();
    await this.cell(to[0], to[1]).click({ modifiers: ['Shift'] });
  }

  /** Selects a block by dragging the mouse from one cell to another. */
  async dragBlock(from: [number, string], to: [number, string]): Promise<void> {
    const a = await this.cell(from[0], from[1]).boundingBox();
    const b = await this.cell(to[0], to[1]).boundingBox();
    if (!a || !b) throw new Error('cells of the block are not on screen');
    await this.page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await this.page.mouse.down();
    for (let i = 1; i <= 6; i++) {
      await this.page.mouse.move(
        a.x + a.width / 2 + ((b.x - a.x) * i) / 6,
        a.y + a.height / 2 + ((b.y - a.y) * i) / 6,
      );
    }
    await this.page.mouse.up();
  }

  /** Cells marked as selected, as "row:colId". */
  async selectedCells(): Promise<string[]> {
    return this.root.evaluate((root) =>
      [...root.querySelectorAll('.ag-cell.portolan-cell-selected')].map(
        (c) => `${c.closest('.ag-row')?.getAttribute('row-index')}:${c.getAttribute('col-id')}`,
      ),
    );
  }

  /** Ctrl+C in the grid, then the clipboard's text (the context must allow clipboard reading). */
  async copy(): Promise<string> {
    await this.page.keyboard.press('Control+c');
    return String(await this.page.evaluate('navigator.clipboard.readText()'));
  }

  /** The cell that has the keyboard focus, as "row:colId" (null when the focus is outside the grid's cells). */
  async focusedCell(): Promise<string | null> {
    return this.root.evaluate((root) => {
      const cell = root.ownerDocument.activeElement?.closest('.ag-cell');
      if (!cell) return null;
      return `${cell.closest('.ag-row')?.getAttribute('row-index')}:${cell.getAttribute('col-id')}`;
    });
  }

  async recordView(): Promise<Locator> {
    return this.page.getByTestId(`${await this.testId()}-record`);
  }

  /** The open record view's groups and, per group, its fields as label → shown text. */
  async recordGroups(): Promise<{ name: string; fields: Record<string, string> }[]> {
    const id = await this.testId();
    // A library grid holds the shown columns of a row: the view reads its other fields first.
    await this.page.locator(`[data-testid="${id}-record-fields"][data-complete="true"]`).waitFor();
    return this.page.getByTestId(`${id}-record-group`).evaluateAll((groups) =>
      groups.map((g) => ({
        name: g.getAttribute('data-group') ?? '',
        fields: Object.fromEntries(
          [...g.querySelectorAll('tr[data-field]')].map((tr) => [
            tr.getAttribute('data-field') ?? '',
            (tr.querySelector('td')?.textContent ?? '').trim(),
          ]),
        ),
      })),
    );
  }
}
