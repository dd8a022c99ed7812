import type { ExportFormat, ExportSourceRef, ExportView } from '@shared/export/export-contract';
import type { JobFinished, JobProgress } from '@shared/jobs/jobs-contract';
import type { BridgeError } from '@shared/ipc/errors';

export type ExportStep =
  | { step: 'form'; error: BridgeError | null }
  | { step: 'confirmReplace'; message: string }
  | {
      step: 'running';
      jobId: string;
      path: string;
      /** Where the browser host offers the finished file (by its handle); null in the desktop app. */
      downloadUrl: string | null;
      progress: JobProgress | null;
      cancelling: boolean;
    }
  | {
      step: 'done';
      outcome: JobFinished['outcome'];
      message: string;
      path: string;
      downloadUrl: string | null;
      /** A failure whose folder was the problem: the same export into another folder may succeed. */
      anotherFolder: boolean;
      /** The system's own text of a failure the message says in words; null when there is none. */
      detail: string | null;
    };

/** The system's own text of a failed export, shown small under its message; null when there is none. */
export function failureDetail(f: JobFinished): string | null {
  return f.kind === 'export' && f.outcome === 'failed' ? (f.detail ?? null) : null;
}

/** Whether a finished job is a failed export whose folder was the problem. */
export function folderWasTheProblem(f: JobFinished): boolean {
  return f.kind === 'export' && f.outcome === 'failed' && f.anotherFolder === true;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The file's name from a path of either platform: what a browser download is called. */
export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

export const FORMAT_NAMES: Record<ExportFormat, string> = { xlsx: 'Excel', csv: 'CSV', parquet: 'Parquet' };

/** "12,000 of 50,000 rows · about 8 s left" */
export function describeProgress(p: JobProgress | null): string {
  if (!p) return 'Starting…';
  const total = p.total === null ? '' : ` of ${fmt(p.total)}`;
  const eta = p.etaSeconds === null ? '' : ` · about ${p.etaSeconds} s left`;
  return `${fmt(p.done)}${total} ${p.unit}${eta}`;
}

/** 0–100 for the progress bar; null when the total is unknown. */
export function progressPercent(p: JobProgress | null): number | null {
  if (!p || p.total === null || p.total <= 0) return null;
  return Math.min(100, Math.round((p.done / p.total) * 100));
}

/** What the dialog exports when it has a view: the view as shown, or every field of every stored row. */
export type ExportScope = 'view' | 'dataset';

/** Figures the dialog states before anything is written. */
export interface ExportCounts {
  /** Rows the view shows (the grid's count); null until the grid has counted them. */
  viewRows: number | null;
  /** Rows stored in the dataset: what a whole-dataset export writes. */
  storedRows: number;
}

/** Whether the view leaves rows out (column filters or a quick filter), rather than only sorting or hiding columns. */
export function viewNarrows(view: ExportView | undefined): boolean {
  return Object.keys(view?.filterModel ?? {}).length > 0 || (view?.quickFilter ?? '').trim().length > 0;
}

/**
 * The choice the dialog starts with. A view that leaves rows out is what the analyst filtered for, so
 * it is exported as shown; otherwise the grid's columns are only a reading layout (16 of the 88 shipment
 * fields by default), and what an analyst exports from the Library is the whole dataset.
 */
export function defaultScope(view: ExportView | undefined): ExportScope {
  return view && viewNarrows(view) ? 'view' : 'dataset';
}

/** The export source for the chosen scope: a whole-dataset export sends no view, so main writes every field. */
export function scopedSource(
  datasetId: string,
  scope: ExportScope,
  view: ExportView | undefined,
): ExportSourceRef {
  return scope === 'view' && view ? { datasetId, view } : { datasetId };
}

/** How many rows the export will write, when known. */
export function rowsToExport(scope: ExportScope, counts: ExportCounts | undefined): number | null {
  if (!counts) return null;
  return scope === 'view' ? counts.viewRows : counts.storedRows;
}

const plural = (n: number, one: string, many: string): string => `${fmt(n)} ${n === 1 ? one : many}`;

/** "This view — 16 columns, 1,234 rows, with its sort and filters" */
export function describeViewChoice(view: ExportView, counts: ExportCounts | undefined): string {
  const parts: string[] = [];
  if (view.columns && view.columns.length > 0) parts.push(plural(view.columns.length, 'column', 'columns'));
  if (counts)
    parts.push(
      counts.viewRows === null ? 'rows still being counted' : plural(counts.viewRows, 'row', 'rows'),
    );
  const sorted = (view.sortModel ?? []).length > 0;
  const narrowed = viewNarrows(view);
  const shaped = sorted && narrowed ? 'sort and filters' : sorted ? 'sort' : narrowed ? 'filters' : '';
  if (shaped) parts.push(`with its ${shaped}`);
  return parts.length > 0 ? `This view — ${parts.join(', ')}` : 'This view';
}

/** "Whole dataset — all fields, all 50,000 rows" */
export function describeDatasetChoice(counts: ExportCounts | undefined): string {
  return counts
    ? `Whole dataset — all fields, all ${plural(counts.storedRows, 'row', 'rows')}`
    : 'Whole dataset — all fields, all rows';
}

/** The line under the choice: how many rows will be written, or why nothing would be. */
export function describeRowsToExport(scope: ExportScope, counts: ExportCounts | undefined): string | null {
  const rows = rowsToExport(scope, counts);
  if (rows === null) return counts ? 'Counting the rows to export…' : null;
  if (rows > 0) return `${plural(rows, 'row', 'rows')} will be exported.`;
  return scope === 'view' && counts?.storedRows !== 0
    ? 'No rows match the filters of this view, so there is nothing to export. Change the filters, or export the whole dataset.'
    : 'This dataset has no rows, so there is nothing to export.';
}
