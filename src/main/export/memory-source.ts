import type { ExportColumn, ExportKind, ExportSource, QueryInfo } from './types';

/** An export source over rows already in memory, handed out in batches like the library does. */
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
        yield init.rows.slice(i, i + batchSize);
      }
    },
  };
}
