import type { ExportProgress } from './types';

const PROGRESS_EVERY_MS = 200;

/**
 * The progress callback of a writer, throttled to a few calls a second so a million rows do not mean
 * a million events; `force` passes phase changes and the final count through at once.
 */
export function throttledProgress(
  onProgress: ((p: ExportProgress) => void) | undefined,
): (p: ExportProgress, force?: boolean) => void {
  let last = 0;
  return (p, force = false) => {
    const t = Date.now();
    if (!onProgress || (!force && t - last < PROGRESS_EVERY_MS)) return;
    last = t;
    onProgress(p);
  };
}
