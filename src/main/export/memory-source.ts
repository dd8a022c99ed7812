import type { ExportColumn, ExportKind, ExportRow, ExportSource, QueryInfo } from './types';

/** Records as export rows: each record's values in the order of the columns. */
export function toExportRows(
  columns: readonly ExportColumn[],
  records: readonly Record<string, unknown>[],
): ExportRow[] {
  const fields = columns.map((c) => c.field);
  return records.map((r) => fields.map((f) => r[f]));
}

/** An export source over records already in memory, handed out in batches like the library does. */
export function createMemorySource(init: {
  kind: ExportKind;
  columns: readonly ExportColumn[];
  rows: readonly Record<string, unknown>[];
  query: QueryInfo;
  batchSize?: number;
}): ExportSource {
  const batchSize = init.batchSize ?? 5_000;
  return {
    kind: init.kind,
    columns: init.columns,
    rowCount: init.rows.length,
    query: init.query,
    async *batches(signal?: AbortSignal) {
      for (let i = 0; i < init.rows.length; i += batchSize) {
        if (signal?.aborted) return;
        yield toExportRows(init.columns, init.rows.slice(i, i + batchSize));
      }
    },
  };
}
