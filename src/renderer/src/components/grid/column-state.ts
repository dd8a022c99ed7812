import type { ColumnState, FilterModel, GridApi } from 'ag-grid-community';

const key = (gridId: string, part: 'columns' | 'filters') => `portolan.grid.${gridId}.${part}`;

function read(storageKey: string): unknown {
  try {
    const text = window.localStorage.getItem(storageKey);
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return null;
  }
}

function write(storageKey: string, value: unknown): void {
  try {
    if (value === null) window.localStorage.removeItem(storageKey);
    else window.localStorage.setItem(storageKey, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the grid still works, it just forgets its layout.
  }
}

/** Column order, width, visibility, pinning and sort of one grid, remembered across sessions. */
export function saveColumnState(gridId: string, api: GridApi): void {
  write(key(gridId, 'columns'), api.getColumnState());
}

export function restoreColumnState(gridId: string, api: GridApi): boolean {
  const state = read(key(gridId, 'columns'));
  if (!Array.isArray(state)) return false;
  try {
    return api.applyColumnState({ state: state as ColumnState[], applyOrder: true });
  } catch {
    return false;
  }
}

/**
 * The columns a grid was last left showing, by id, as its saved layout has them; null when it has no
 * saved layout (it shows its defaults). Read before the grid exists, e.g. to ask for these columns only.
 */
export function savedShownColumns(gridId: string): string[] | null {
  const state = read(key(gridId, 'columns'));
  if (!Array.isArray(state)) return null;
  return (state as ColumnState[])
    .filter((c) => typeof c?.colId === 'string' && c.hide !== true)
    .map((c) => c.colId);
}

/** The column filters of one grid, remembered across page changes and restarts. */
export function saveFilterState(gridId: string, api: GridApi): void {
  const model = api.getFilterModel();
  write(key(gridId, 'filters'), Object.keys(model).length ? model : null);
}

export function restoreFilterState(gridId: string, api: GridApi): boolean {
  const model = read(key(gridId, 'filters'));
  if (typeof model !== 'object' || model === null || Array.isArray(model)) return false;
  // Filters of columns this grid no longer has are dropped rather than failing the rest.
  const known = Object.fromEntries(
    Object.entries(model as FilterModel).filter(([colId]) => api.getColumn(colId) !== null),
  );
  if (!Object.keys(known).length) return false;
  api.setFilterModel(known);
  return true;
}

/** Forgets a grid's layout and filters ("Reset to defaults"). */
export function forgetColumnState(gridId: string): void {
  write(key(gridId, 'columns'), null);
  write(key(gridId, 'filters'), null);
}
