import type { ColDef, ColGroupDef, GridApi } from 'ag-grid-community';

/** One field of a record as the record view shows it. */
export interface RecordField {
  colId: string;
  label: string;
  text: string;
  /** The imported file had no such column: the value is missing, not empty. */
  missing?: boolean;
}

/** A column's `context` marking a field the imported file did not have (its cells show a dimmed "—"). */
export const MISSING_CONTEXT = { missing: true } as const;
export const MISSING_TEXT = 'missing from the imported file';

const isMissing = (context: unknown): boolean =>
  typeof context === 'object' && context !== null && 'missing' in context && context.missing === true;

export interface RecordGroup {
  name: string;
  fields: RecordField[];
}

function isGroup<T>(def: ColDef<T> | ColGroupDef<T>): def is ColGroupDef<T> {
  return 'children' in def;
}

/** Whether a column shows a value of the record (not a column of buttons). */
function holdsValue<T>(def: ColDef<T>): boolean {
  return Boolean(def.field || def.valueGetter);
}

/**
 * Every field of a displayed row, grouped as the grid's column groups are (hidden columns too: the
 * record view shows the whole record), each as the grid shows it. Columns outside any group go under
 * `looseTitle`. Null when the row is not loaded.
 */
export function readRecord<T>(api: GridApi<T>, row: number, looseTitle: string): RecordGroup[] | null {
  const node = api.getDisplayedRowAtIndex(row);
  if (!node?.data) return null;
  const field = (def: ColDef<T>): RecordField | null => {
    const colId = def.colId ?? (typeof def.field === 'string' ? def.field : undefined);
    if (!colId || !holdsValue(def) || !api.getColumn(colId)) return null;
    if (isMissing(def.context))
      return { colId, label: def.headerName ?? colId, text: MISSING_TEXT, missing: true };
    const shown: unknown = api.getCellValue({ rowNode: node, colKey: colId, useFormatter: true });
    const text =
      shown === null || shown === undefined
        ? ''
        : typeof shown === 'string'
          ? shown
          : String(shown as number | boolean);
    return { colId, label: def.headerName ?? colId, text };
  };
  const groups: RecordGroup[] = [];
  const loose: RecordField[] = [];
  for (const def of api.getColumnDefs() ?? []) {
    if (isGroup(def)) {
      const fields = def.children
        .filter((c): c is ColDef<T> => !isGroup(c))
        .map(field)
        .filter((f): f is RecordField => f !== null);
      if (fields.length) groups.push({ name: def.headerName ?? def.groupId ?? '', fields });
    } else {
      const f = field(def);
      if (f) loose.push(f);
    }
  }
  if (loose.length) groups.unshift({ name: looseTitle, fields: loose });
  return groups;
}
