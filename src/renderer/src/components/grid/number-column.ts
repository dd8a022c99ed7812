import type { Column } from 'ag-grid-community';
import { numberDisplayOf, type DatasetKind, type NumberDisplay } from '@shared/fields';

/** What a numeric column's definition carries in its `context`: how its numbers are shown and summed. */
interface NumberColumnContext {
  numberDisplay: NumberDisplay;
}

/** The `context` of a numeric column's definition (read back by `displayOfColumn`). */
export function numberColumnContext(kind: DatasetKind, field: string): NumberColumnContext | undefined {
  const display = numberDisplayOf(kind, field);
  return display ? { numberDisplay: display } : undefined;
}

/** How a column shows its numbers; undefined for a column of text. */
export function displayOfColumn(col: Column | null | undefined): NumberDisplay | undefined {
  const ctx: unknown = col?.getColDef().context;
  if (typeof ctx === 'object' && ctx !== null && 'numberDisplay' in ctx) {
    return (ctx as NumberColumnContext).numberDisplay;
  }
  return undefined;
}
