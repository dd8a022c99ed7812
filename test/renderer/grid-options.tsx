import type { GridApi } from 'ag-grid-community';

/**
 * The options ag-grid reapplied while `renderAgain` rendered the grid's component with the same props:
 * ag-grid takes every prop that is a new value as a changed option, and reports each in its
 * componentStateChanged event.
 */
export async function optionsReappliedAcrossRenders(
  api: GridApi,
  renderAgain: () => void,
): Promise<string[]> {
  const reapplied: string[] = [];
  const listener = (e: object) => {
    reapplied.push(...Object.keys(e).filter((k) => !['type', 'api', 'context'].includes(k)));
  };
  api.addEventListener('componentStateChanged', listener);
  try {
    renderAgain();
    renderAgain();
    // ag-grid applies a render's changed props once it is ready for them, not during the render.
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    api.removeEventListener('componentStateChanged', listener);
  }
  return reapplied;
}
