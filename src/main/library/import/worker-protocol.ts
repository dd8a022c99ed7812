import type { ImportPlan, ImportPreviewChoices, UnnamedColumnFound } from '@shared/library/import-contract';
import type { ImportWarningView } from '@shared/library/library-contract';
import type { StagedSource } from '../ingest';
import type { PreparedImport, RememberedMapping } from './preview';
import type { ImportLimits } from './table-types';

export interface RunSummary {
  rows: number;
  blankRows: number;
  warnings: ImportWarningView[];
  partOnly: string[];
  missingFields: string[];
  extraColumns: string[];
  /** Columns with a blank header cell that hold a value, with their first one (RowConverter.unnamedFound). */
  unnamedFound: UnnamedColumnFound[];
}

/** How far a whole-file check has got, and what it found in the rows it read (see ImportCheckView). */
export interface CheckProgress {
  rowsChecked: number;
  rowsTotal: number | null;
  totalIsEstimate: boolean;
  blankRows: number;
  issues: ImportWarningView[];
  unnamedFound: UnnamedColumnFound[];
}

/** A read of every row of a file under a plan: what a check and an import both tell the worker. */
export interface PlannedRead {
  path: string;
  fileName: string;
  plan: ImportPlan;
  headers: string[];
  /** The columns whose header cell is blank (blankHeaders). */
  blank: number[];
  limits: ImportLimits;
  /** The HS headings (4 digits) known, to restore the leading zero a spreadsheet dropped (convert.ts). */
  hsHeadings: string[];
}

export type ToWorker =
  /**
   * Reads the head of the file and prepares its preview under the analyst's choices (preview.ts), asking
   * the main thread with `recall` for a mapping remembered for the file's columns.
   */
  | {
      type: 'preview';
      path: string;
      fileName: string;
      choices: ImportPreviewChoices;
      limits: ImportLimits;
      hsHeadings: string[];
    }
  /** The answer to `recall`: the mapping confirmed for files of those columns, or null. */
  | { type: 'recalled'; mapping: RememberedMapping | null }
  /** Reads every row under the plan and counts what would not import as it is; stores nothing. */
  | ({ type: 'check' } & PlannedRead)
  | ({
      type: 'run';
      /** A folder of the main thread's where the worker writes its parts (row-stage.ts). */
      stagingDir: string;
    } & PlannedRead)
  /** A part was stored, or (`declined`, a plain CSV: NativeCsvDeclined) not: read the file on the row path. */
  | { type: 'ack'; declined?: boolean }
  /** Stop reading, close the file, answer `stopped`. */
  | { type: 'stop' };

export type FromWorker =
  /** `packages`: those the worker's thread had loaded by then (a CSV's preview needs neither DuckDB nor htmlparser2). */
  | { type: 'preview'; prepared: PreparedImport; packages: string[] }
  /** Which mapping the analyst confirmed for files whose columns have this shape key, if any. */
  | { type: 'recall'; shapeKey: string }
  /** Converted rows staged in the row table's shape; the library copies them in. */
  | { type: 'part'; source: StagedSource; rows: number; rowsRead: number }
  | { type: 'done'; summary: RunSummary }
  /** A check's progress (`final`: every row was read, and the source is closed). */
  | { type: 'checked'; progress: CheckProgress; final: boolean }
  | { type: 'refused'; message: string; detail?: string }
  /** The worker stopped as asked and holds nothing open: it may be ended. */
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
