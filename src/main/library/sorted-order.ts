import type { Db, SqlParams } from './db';

/** From this row on, a block of a sorted or filtered view reads the view's whole order once. */
export const DEEP_BLOCK_ROW = 10_000;

/** Orders kept at once (4 bytes a row: 4 MB each for a million rows). */
const KEPT_ORDERS = 4;

/** A view of a dataset's rows as SQL: its filter, its order and their parameters. */
export interface ViewSql {
  where: string;
  orderBy: string;
  params: SqlParams;
  /** Whether the view depends on the firm resolution (then its order is never kept). */
  byFirm: boolean;
}

/**
 * The row numbers of a block of a sorted or filtered view. A block near the top is DuckDB's top-N
 * (`LIMIT … OFFSET …`, cheap for a small offset). A deeper one needs the view sorted up to its offset
 * — as costly as sorting it all — so the whole order is read once, kept, and that block and every
 * later block of the same view (the analyst scrolling on) is a slice of it. Orders are forgotten
 * whenever rows are written (`clear`), and never kept for a view that depends on the firm resolution.
 */
export class SortedOrders {
  private readonly kept = new Map<string, Int32Array>();
  /** Counts `clear` calls: an order read while rows were being written is not kept. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  async block(table: string, view: ViewSql, startRow: number, rows: number): Promise<number[]> {
    const hit = this.keptOrder(table, view);
    if (hit) return Array.from(hit.subarray(startRow, startRow + rows));
    if (startRow < DEEP_BLOCK_ROW || view.byFirm) {
      return Array.from(
        await this.db.integers(`${orderSql(table, view)} LIMIT ${rows} OFFSET ${startRow}`, view.params),
      );
    }
    return Array.from((await this.whole(table, view)).subarray(startRow, startRow + rows));
  }

  /**
   * The row numbers of every row of a view, in its order (the grid's, ties by row number): DuckDB
   * sorts only the sort keys and row numbers. Kept like a deep block's order, so that an export of a
   * view the analyst scrolled through, or scrolling after an export, does not sort it again.
   */
  async whole(table: string, view: ViewSql): Promise<Int32Array> {
    const hit = this.keptOrder(table, view);
    if (hit) return hit;
    const generation = this.generation;
    const order = await this.db.integers(orderSql(table, view), view.params);
    if (generation === this.generation && !view.byFirm) {
      if (this.kept.size >= KEPT_ORDERS) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(keyOf(table, view), order);
    }
    return order;
  }

  private keptOrder(table: string, view: ViewSql): Int32Array | undefined {
    if (view.byFirm) return undefined;
    const key = keyOf(table, view);
    const hit = this.kept.get(key);
    if (hit) {
      // Most recently used last, so the oldest goes first.
      this.kept.delete(key);
      this.kept.set(key, hit);
    }
    return hit;
  }

  /** Forgets every order: rows were written. */
  clear(): void {
    this.generation += 1;
    this.kept.clear();
  }
}

function keyOf(table: string, view: ViewSql): string {
  return JSON.stringify([table, view.where, view.orderBy, view.params]);
}

function orderSql(table: string, view: ViewSql): string {
  return `SELECT row_no FROM ${table} WHERE ${view.where} ORDER BY ${view.orderBy}`;
}

/**
 * The WHERE condition that keeps exactly the rows of a block, given their row numbers (its
 * parameters come after the dataset id, `$1`). A block of a sorted view holds rows from anywhere in
 * the dataset; DuckDB takes `row_no IN (…)` only as a hint for skipping row groups and tests it after
 * the scan, so every requested column of every row of the dataset was read. A range of row numbers and
 * one bit per row number in it are tested inside the scan instead: the scan reads row_no, and the
 * other columns only at the rows that pass.
 */
export function rowNumberFilter(rowNumbers: readonly number[] | Int32Array): {
  sql: string;
  params: [number, number, string];
} {
  if (rowNumbers.length === 0) throw new Error('a block of no rows');
  let lo = Infinity;
  let hi = -Infinity;
  for (const n of rowNumbers) {
    if (!Number.isInteger(n) || n < 0) throw new Error('unexpected row number');
    if (n < lo) lo = n;
    if (n > hi) hi = n;
  }
  const bits = new Uint8Array(hi - lo + 1).fill(0x30); // '0'
  for (const n of rowNumbers) bits[n - lo] = 0x31; // '1'
  return {
    sql: 'row_no BETWEEN CAST($2 AS INTEGER) AND CAST($3 AS INTEGER) AND get_bit(CAST($4 AS BIT), row_no - CAST($2 AS INTEGER)) = 1',
    params: [lo, hi, new TextDecoder('latin1').decode(bits)],
  };
}
