import duckdb from '@duckdb/node-bindings';
import type { DuckDBDataChunk } from '@duckdb/node-api';

/** Rows per DuckDB vector (`duckdb_vector_size()`, 2048 in every release). */
export const VECTOR_ROWS = 2048;

// DuckDB's `duckdb_string_t` (duckdb.h) is 16 bytes: a uint32 byte length, then either the bytes
// themselves inline (up to 12) or a 4-byte prefix and a pointer into the vector's string heap.
const STRING_T_BYTES = 16;
const INLINE_MAX = 12;

/**
 * Writes whole columns of a data chunk in a few native calls instead of one per value.
 *
 * `DuckDBDataChunk.setColumns` calls into the addon once per string and updates validity bit by
 * bit with BigInt arithmetic; at 880,000 values per 10,000-record response that was most of the
 * ingest time. Here short ASCII strings (most codes, dates and amounts) are laid out as inline
 * `duckdb_string_t` entries in a JS buffer and copied into the vector in one call, NULLs go in as
 * one validity mask, and only longer or non-ASCII text takes the addon's string call, which puts
 * it on the vector's own heap. Entries are copied before those calls so the copy cannot overwrite
 * them. Validity bit `i` of the mask's little-endian uint64 words is bit `i % 8` of byte `i / 8`
 * on the little-endian machines DuckDB's binaries exist for.
 */
export class ChunkFiller {
  private readonly entries = new Uint8Array(VECTOR_ROWS * STRING_T_BYTES);
  private readonly validity = new Uint8Array(VECTOR_ROWS / 8);
  private readonly heapRows = new Int32Array(VECTOR_ROWS);
  private readonly int64s = new BigInt64Array(VECTOR_ROWS);

  /** VARCHAR column: `null`, `undefined` and `""` become NULL. */
  varchar(chunk: DuckDBDataChunk, column: number, values: readonly (string | null | undefined)[], n: number): void {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
    const entries = this.entries;
    entries.fill(0, 0, n * STRING_T_BYTES);
    const maskBytes = this.resetValidity(n);
    const validity = this.validity;
    let nulls = false;
    let heapCount = 0;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined || v === '') {
        validity[i >> 3]! &= ~(1 << (i & 7));
        nulls = true;
        continue;
      }
      const len = v.length;
      if (len <= INLINE_MAX) {
        const base = i * STRING_T_BYTES;
        let ascii = true;
        for (let k = 0; k < len; k++) {
          const code = v.charCodeAt(k);
          if (code > 0x7f) {
            ascii = false;
            break;
          }
          entries[base + 4 + k] = code;
        }
        if (ascii) {
          entries[base] = len;
          continue;
        }
        // A partly written entry is replaced whole by the string call below.
      }
      this.heapRows[heapCount++] = i;
    }
    duckdb.copy_data_to_vector(vector, 0, entries.buffer, 0, n * STRING_T_BYTES);
    if (nulls) this.copyValidity(vector, maskBytes);
    for (let j = 0; j < heapCount; j++) {
      const i = this.heapRows[j]!;
      duckdb.vector_assign_string_element(vector, i, values[i] as string);
    }
  }

  /** INTEGER column of whole numbers (no NULLs), already laid out as 32-bit integers. */
  int32(chunk: DuckDBDataChunk, column: number, values: Int32Array<ArrayBuffer>, n: number): void {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
    duckdb.copy_data_to_vector(vector, 0, values.buffer, values.byteOffset, n * 4);
  }

  /** BIGINT column: whole numbers, `null`/`undefined` become NULL. */
  bigint(chunk: DuckDBDataChunk, column: number, values: readonly (number | null | undefined)[], n: number): void {
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
    const out = this.int64s;
    const maskBytes = this.resetValidity(n);
    let nulls = false;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) {
        out[i] = 0n;
        this.validity[i >> 3]! &= ~(1 << (i & 7));
        nulls = true;
      } else out[i] = BigInt(v);
    }
    duckdb.copy_data_to_vector(vector, 0, out.buffer, 0, n * 8);
    if (nulls) this.copyValidity(vector, maskBytes);
  }

  private resetValidity(n: number): number {
    const bytes = Math.ceil(n / 64) * 8;
    this.validity.fill(0xff, 0, bytes);
    return bytes;
  }

  private copyValidity(vector: duckdb.Vector, bytes: number): void {
    duckdb.vector_ensure_validity_writable(vector);
    duckdb.copy_data_to_vector_validity(vector, 0, this.validity.buffer, 0, bytes);
  }
}
