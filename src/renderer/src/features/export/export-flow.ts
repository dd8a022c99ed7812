import type { ExportFormat, ExportSourceRef, ExportStarted, ExportTarget } from '@shared/export/export-contract';
import type { JobFinished, JobProgress } from '@shared/ipc/contract';
import type { BridgeError, BridgeResult } from '@shared/ipc/errors';

/** The export calls the dialog needs; `api.export` in the app, a stand-in in component tests. */
export interface ExportApi {
  chooseTarget(input: { suggestedName: string; format: ExportFormat }): Promise<BridgeResult<ExportTarget | null>>;
  start(input: {
    source: ExportSourceRef;
    format: ExportFormat;
    summaries?: boolean;
    path?: string;
    overwrite?: boolean;
  }): Promise<BridgeResult<ExportStarted>>;
  cancel(input: { jobId: string }): Promise<BridgeResult<void>>;
}

export type ExportStep =
  | { step: 'form'; error: BridgeError | null }
  | { step: 'confirmReplace'; message: string }
  | { step: 'running'; jobId: string; path: string; progress: JobProgress | null; cancelling: boolean }
  | { step: 'done'; outcome: JobFinished['outcome']; message: string; path: string };

export const FORMAT_NAMES: Record<ExportFormat, string> = { xlsx: 'Excel', csv: 'CSV', parquet: 'Parquet' };

/** "12,000 of 50,000 rows · about 8 s left" */
export function describeProgress(p: JobProgress | null): string {
  if (!p) return 'Starting…';
  const fmt = (n: number): string => n.toLocaleString('en-US');
  const total = p.total === null ? '' : ` of ${fmt(p.total)}`;
  const eta = p.etaSeconds === null ? '' : ` · about ${p.etaSeconds} s left`;
  return `${fmt(p.done)}${total} ${p.unit}${eta}`;
}

/** 0–100 for the progress bar; null when the total is unknown. */
export function progressPercent(p: JobProgress | null): number | null {
  if (!p || p.total === null || p.total <= 0) return null;
  return Math.min(100, Math.round((p.done / p.total) * 100));
}
