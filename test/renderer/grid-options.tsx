import { setTimeout as sleep } from 'node:timers/promises';
import type { GridApi } from 'ag-grid-community';

/** The longest wait for ag-grid to be quiet before listening. */
const SETTLE_MS = 5_000;

/**
 * The options ag-grid reapplied while `renderAgain` rendered the grid's component with the same props:
 * ag-grid takes every prop that is a new value as a changed option, and reports each in its
 * componentStateChanged event.
 *
 * ag-grid applies a render's changed props once it is ready for them, not during the render: on a busy
 * machine the renders that set the grid up (its API reaching the component, the first count) could be
 * reported after listening began, and taken for the renders measured. So listening waits until ag-grid
 * has been quiet for 100 ms (at most `SETTLE_MS` in all).
 */
export async function optionsReappliedAcrossRenders(
  api: GridApi,
  renderAgain: () => void,
): Promise<string[]> {
  let earlier = 0;
  const count = () => void (earlier += 1);
  api.addEventListener('componentStateChanged', count);
  try {
    const deadline = Date.now() + SETTLE_MS;
    let seen = -1;
    while (seen !== earlier && Date.now() < deadline) {
      seen = earlier;
      await sleep(100);
    }
  } finally {
    api.removeEventListener('componentStateChanged', count);
  }
  const reapplied: string[] = [];
  const listener = (e: object) => {
    reapplied.push(...Object.keys(e).filter((k) => !['type', 'api', 'context'].includes(k)));
  };
  api.addEventListener('componentStateChanged', listener);
  try {
    renderAgain();
    renderAgain();
    await sleep(50);
  } finally {
    api.removeEventListener('componentStateChanged', listener);
  }
  return reapplied;
}
