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
    const key = JSON.stringify([table, view.where, view.orderBy, view.params]);
    const hit = view.byFirm ? undefined : this.kept.get(key);
    if (hit) {
      // Most recently used last, so the oldest goes first.
      this.kept.delete(key);
      this.kept.set(key, hit);
      return Array.from(hit.subarray(startRow, startRow + rows));
    }
    const from = `SELECT row_no FROM ${table} WHERE ${view.where} ORDER BY ${view.orderBy}`;
    if (startRow < DEEP_BLOCK_ROW || view.byFirm) {
      return Array.from(await this.db.integers(`${from} LIMIT ${rows} OFFSET ${startRow}`, view.params));
    }
    const generation = this.generation;
    const order = await this.db.integers(from, view.params);
    if (generation === this.generation) {
      if (this.kept.size >= KEPT_ORDERS) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(key, order);
    }
    return Array.from(order.subarray(startRow, startRow + rows));
  }

  /** Forgets every order: rows were written. */
  clear(): void {
    this.generation += 1;
    this.kept.clear();
  }
}

/**
 * The WHERE condition that keeps exactly the rows of a block, given their row numbers (its
 * parameters come after the dataset id, `$1`). A block of a sorted view holds rows from anywhere in
 * the dataset; DuckDB takes `row_no IN (…)` only as a hint for skipping row groups and tests it after
 * the scan, so every requested column of every row of the dataset was read. A range of row numbers and
 * one bit per row number in it are tested inside the scan instead: the scan reads row_no, and the
 * other columns only at the rows that pass.
 */
export function rowNumberFilter(rowNumbers: readonly number[]): {
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
