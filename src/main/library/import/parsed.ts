import { AppError } from '@shared/ipc/errors';
import type { DatasetKind } from '../fields';
import type { RecordObject } from '../ingest';

/** What a parser got out of a file, before the records are checked and stored. */
export interface Parsed {
  kind: DatasetKind;
  records: RecordObject[];
  /** Names record i the way the analyst finds it in the file: "row 12", "record 3", "sheet Shipments, row 4". */
  locate: (index: number) => string;
  request?: Record<string, unknown>;
  profileName?: string | null;
  account?: string | null;
  /** When the records were fetched from the service, if the file says so (ISO 8601, UTC). */
  fetchedAt?: string;
  reportedTotal?: number | null;
  reported?: Record<string, unknown> | null;
  /** Why the file holds only part of what its query returned (a filtered view, one page of several). */
  partOnly?: string[];
  /** An export of a grid view narrowed by filters: its name says so, next to the query's. */
  fromFilteredView?: boolean;
}

/** Every import problem is reported the same way: which file, what is wrong, nothing changed. */
export function refuse(file: string, problem: string, detail?: string): AppError {
  const end = /[.?!]$/.test(problem) ? '' : '.';
  return new AppError(
    'InvalidInput',
    `Cannot import ${file}: ${problem}${end} The library was not changed.`,
    detail ? { detail } : {},
  );
}

export const NO_RECORDS = 'the file holds no records';
