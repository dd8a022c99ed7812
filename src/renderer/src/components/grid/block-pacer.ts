/**
 * When an infinite grid's block reads go out. The first block of a view (a new answer, another sort, a
 * filter), and a block the grid asks for again (it refreshed its cache), are read at once; a further
 * block of the same view waits until no other block has been asked for during `settleMs`, so that a
 * fast scroll does not read every block it passes.
 *
 * Why not ag-grid's `blockLoadDebounceMillis`: it holds every block, the first of a view included, so a
 * search's answer, whose first block comes with it, was drawn as loading rows and filled only after the
 * wait (50 ms on the Search page, in the click → first rows benchmark).
 */
export interface BlockPacer {
  /**
   * Runs `read` now when `view` is not the view of the last block asked for, or when the block starting
   * at `startRow` was asked for in it before; else once reads settle.
   */
  pace(view: string, startRow: number, read: () => void): void;
  /** Drops the reads still waiting (the grid's view or data source was replaced). */
  stop(): void;
}

export function createBlockPacer(settleMs: number): BlockPacer {
  let lastView: string | null = null;
  let asked = new Set<number>();
  let waiting: (() => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  const clear = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  return {
    pace(view, startRow, read) {
      if (view !== lastView) {
        lastView = view;
        asked = new Set([startRow]);
        read();
        return;
      }
      if (asked.has(startRow)) {
        read();
        return;
      }
      asked.add(startRow);
      waiting.push(read);
      clear();
      timer = setTimeout(() => {
        timer = null;
        const reads = waiting;
        waiting = [];
        for (const r of reads) r();
      }, settleMs);
    },
    stop() {
      clear();
      waiting = [];
    },
  };
}
