import { findFieldDef } from '../fields';
import { RESOLVED_FIRM_TITLES, extraHeaderOf, type ResolvedFirmColumn } from './library-contract';

/** A column as its grid header says it: a field's title, a resolved firm's, an extra column's own name. */
export function columnTitle(colId: string): string {
  return (
    extraHeaderOf(colId) ??
    RESOLVED_FIRM_TITLES[colId as ResolvedFirmColumn] ??
    findFieldDef('shipments', colId)?.title ??
    findFieldDef('firms', colId)?.title ??
    colId
  );
}

/**
 * The part of a grid's view an issue's path points into (a library block's or an export's), as the
 * grid shows it: its quick filter, or the filter of a column named by its header; null otherwise.
 */
export function viewPartLabel(path: string): string | null {
  if (/(?:^|\.)quickFilter$/.test(path)) return 'Quick filter';
  const column = /(?:^|\.)filterModel\.([^.[\]]+)/.exec(path)?.[1];
  return column === undefined ? null : `Filter of ${columnTitle(column)}`;
}
