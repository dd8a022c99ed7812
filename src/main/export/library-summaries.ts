import type { ExportView } from '@shared/export/export-contract';
import { throwIfAborted } from './atomic-file';
import { SUMMARY_DEFINITIONS, TOP_N } from './summaries';
import type { SummaryKind, SummaryProvider, SummaryTable } from './types';
import { type Library, toNumber, buildQuery, parseGridQuery } from '../library';

/** A number from a text column; fillers ("-", "N/A") count as shipments but add nothing. */
const num = (field: string): string => `coalesce(TRY_CAST("${field}" AS DOUBLE), 0)`;
const txt = (field: string): string => `coalesce(CAST("${field}" AS VARCHAR), '')`;
/** Float sums drift in the last digits; cents are what an analyst reads (as summarizeRecords does). */
const cents = (expr: string): string => `round(sum(${expr}), 2)`;

/** The grouping SQL per sheet; the same definitions and order as `summarizeRecords`. */
function summarySql(kind: SummaryKind, from: string): string {
  switch (kind) {
    case 'topImporters':
      return `SELECT ${txt('importerName')} AS a, ${txt('importerCountry')} AS b, count(*) AS n, ${cents(num('usdCif'))} AS s1
              FROM ${from} GROUP BY a, b ORDER BY n DESC, a, b LIMIT ${TOP_N}`;
    case 'topExporters':
      return `SELECT ${txt('exporterName')} AS a, ${txt('exporterCountry')} AS b, count(*) AS n, ${cents(num('usdFob'))} AS s1
              FROM ${from} GROUP BY a, b ORDER BY n DESC, a, b LIMIT ${TOP_N}`;
    case 'byHsCode':
      return `SELECT ${txt('hsCode')} AS a, count(*) AS n, ${cents(num('usdFob'))} AS s1, ${cents(num('usdCif'))} AS s2
              FROM ${from} GROUP BY a ORDER BY n DESC, a`;
    case 'byMonth':
      return `SELECT CASE WHEN regexp_matches(${txt('arrivalDate')}, '^\\d{4}-\\d{2}') THEN substr(${txt('arrivalDate')}, 1, 7)
                          ELSE 'unknown' END AS a,
                     count(*) AS n, ${cents(num('usdFob'))} AS s1, ${cents(num('usdCif'))} AS s2
              FROM ${from} GROUP BY a ORDER BY a`;
  }
}

const CELLS: Record<SummaryKind, readonly string[]> = {
  topImporters: ['a', 'b', 'n', 's1'],
  topExporters: ['a', 'b', 'n', 's1'],
  byHsCode: ['a', 'n', 's1', 's2'],
  byMonth: ['a', 'n', 's1', 's2'],
};

/**
 * The summary sheets of a shipment dataset, computed in DuckDB over exactly the rows exported (the
 * view's filters and quick filter apply; sort does not matter to a sum).
 */
export function createLibrarySummaryProvider(
  library: Library,
  datasetId: string,
  view: ExportView | undefined,
): SummaryProvider {
  return {
    async summaries(kinds, signal) {
      const q = parseGridQuery({
        startRow: 0,
        endRow: 0,
        filterModel: view?.filterModel ?? null,
        quickFilter: view?.quickFilter ?? null,
      });
      const built = buildQuery('shipments', datasetId, q, await library.extrasOf(datasetId));
      const from = `(SELECT * FROM shipment_rows WHERE ${built.where})`;
      const tables: SummaryTable[] = [];
      for (const kind of kinds) {
        throwIfAborted(signal);
        const rows = await library.reader.all(summarySql(kind, from), built.params);
        const def = SUMMARY_DEFINITIONS[kind];
        tables.push({
          kind,
          title: def.title,
          columns: def.columns,
          rows: rows.map((r) =>
            CELLS[kind].map((key, i) =>
              def.columns[i]?.type === 'text' ? String(r[key] ?? '') : toNumber(r[key]),
            ),
          ),
        });
      }
      return tables;
    },
  };
}
