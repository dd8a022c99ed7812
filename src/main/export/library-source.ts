import type { ExportView } from '@shared/export/export-contract';
import { AppError } from '@shared/ipc/errors';
import { extraColumnId, extraHeaderOf } from '@shared/library/library-contract';
import { Library, type DatasetMeta } from '../library';
import { firmColumns, shipmentColumns } from './columns';
import type { ExportColumn, ExportSource } from './types';

function gridQuery(view: ExportView | undefined): {
  sortModel: NonNullable<ExportView['sortModel']>;
  filterModel: ExportView['filterModel'];
  quickFilter: ExportView['quickFilter'];
} {
  return {
    sortModel: view?.sortModel ?? [],
    filterModel: view?.filterModel ?? null,
    quickFilter: view?.quickFilter ?? null,
  };
}

/**
 * The columns to write: the view's visible columns in their order (the resolved firm columns and an
 * import's extra columns among them when shown), else every field of the kind and then every extra
 * column. An extra column is written under its header in the file it came from.
 */
export function exportColumnsFor(meta: DatasetMeta, view: ExportView | undefined): ExportColumn[] {
  const extras = meta.extraColumns.map(extraColumnId);
  const known = new Set([...Library.exportColumns(meta.kind), ...extras]);
  const fields =
    view?.columns && view.columns.length > 0
      ? [...new Set(view.columns)]
      : [...Library.columns(meta.kind), ...extras];
  const unknown = fields.filter((f) => !known.has(f));
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((f) => extraHeaderOf(f) ?? f);
    throw new AppError('InvalidInput', `Not a ${meta.kind} column: ${named.join(', ')}`);
  }
  const ofKind = (f: readonly string[]) => (meta.kind === 'shipments' ? shipmentColumns(f) : firmColumns(f));
  return fields.map((f) => {
    const header = extraHeaderOf(f);
    return header === null ? ofKind([f])[0]! : { field: f, header, title: header, type: 'text' };
  });
}

/** Whether the view narrows or reorders the rows, so the export differs from the stored dataset. */
export function viewIsNarrowed(view: ExportView | undefined): boolean {
  return Object.keys(view?.filterModel ?? {}).length > 0 || (view?.quickFilter ?? '').trim().length > 0;
}

/**
 * A library dataset as an export source: rows read in the view's order through the library's SQL
 * (sort, filters and quick filter run in DuckDB, one streaming pass), the Query sheet filled from
 * the dataset's record.
 */
export async function libraryExportSource(
  library: Library,
  datasetId: string,
  view: ExportView | undefined,
  appVersion: string,
): Promise<{ source: ExportSource; meta: DatasetMeta }> {
  const meta = await library.get(datasetId);
  const columns = exportColumnsFor(meta, view);
  const query = gridQuery(view);
  // A filtered view's row count comes from the same SQL the rows do (an empty block still counts).
  const rowCount = viewIsNarrowed(view)
    ? (
        await library.getRows(datasetId, {
          ...query,
          startRow: 0,
          endRow: 0,
          columns: [columns[0]?.field ?? ''],
        })
      ).lastRow
    : meta.storedRows;
  // A header-only file looks like a successful export of nothing; say why there is nothing instead.
  if (rowCount === 0) {
    throw new AppError(
      'InvalidInput',
      viewIsNarrowed(view)
        ? 'No rows match the filters of this view, so nothing was exported. Change the filters, or export the whole dataset.'
        : 'This dataset has no rows, so nothing was exported.',
    );
  }
  const fields = columns.map((c) => c.field);
  const source: ExportSource = {
    kind: meta.kind,
    columns,
    rowCount,
    query: {
      profile: meta.profileName ?? '',
      account: meta.account ?? '',
      filter: meta.request,
      fetchedAt: meta.fetchedAt,
      totalReported: meta.reportedTotal,
      appVersion,
      ...(view ? { view: { ...query, columns: fields } } : {}),
    },
    batches: (signal) => library.streamFieldRows(datasetId, fields, { query, signal }),
    copyParquet: (path, opts) =>
      library.writeParquet(
        datasetId,
        columns.map((c) => ({ field: c.field, name: c.header, type: c.type })),
        path,
        { ...opts, query },
      ),
  };
  return { source, meta };
}
