import type { ColumnState, GridApi } from 'ag-grid-community';

const key = (gridId: string) => `portolan.grid.${gridId}.columns`;

/** Column order, width, visibility, pinning and sort of one grid, remembered across sessions. */
export function saveColumnState(gridId: string, api: GridApi): void {
  try {
    window.localStorage.setItem(key(gridId), JSON.stringify(api.getColumnState()));
  } catch {
    // Storage full or disabled: the grid still works, it just forgets its layout.
  }
}

export function restoreColumnState(gridId: string, api: GridApi): boolean {
  try {
    const text = window.localStorage.getItem(key(gridId));
    if (!text) return false;
    const state = JSON.parse(text) as unknown;
    if (!Array.isArray(state)) return false;
    return api.applyColumnState({ state: state as ColumnState[], applyOrder: true });
  } catch {
    return false;
  }
}

export function forgetColumnState(gridId: string): void {
  try {
    window.localStorage.removeItem(key(gridId));
  } catch {
    // nothing to forget
  }
}
