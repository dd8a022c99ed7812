import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';

/**
 * exceljs's worksheet stream (a StreamBuf) ignores backpressure: `write` always returns true and pushes
 * every full buffer into the zip's deflate stream whether or not it keeps up, and while the zip is busy
 * with an earlier entry it keeps everything itself. A producer that never waits therefore piles the
 * whole sheet up in memory (hundreds of MB at 100,000 rows). These are the only internals we read, and
 * they are read defensively: if a future exceljs changes them we still yield, just without measuring.
 */
interface StreamBufLike {
  buffers?: unknown[];
  bufSize?: number;
  pipes?: { writableLength?: number; _writableState?: { length?: number } }[];
}

const CHUNK = 65_536;
/** Enough queued XML to keep the deflater busy; more only costs memory. */
const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

export function pendingBytes(stream: unknown): number {
  const s = stream as StreamBufLike | null;
  if (!s || typeof s !== 'object') return 0;
  const bufferBytes = typeof s.bufSize === 'number' ? s.bufSize : CHUNK;
  let bytes = Array.isArray(s.buffers) ? s.buffers.length * bufferBytes : 0;
  if (Array.isArray(s.pipes)) {
    for (const p of s.pipes) {
      // The zip's streams come from readable-stream 2, which has no public writableLength.
      const queued = p?.writableLength ?? p?._writableState?.length;
      if (typeof queued === 'number') bytes += queued;
    }
  }
  return bytes;
}

/** Set by the writer when the zip or the file fails; a failed zip never drains, so waiting must stop. */
export interface WriteFailure {
  error?: unknown;
}

/** Waits until the sheet's queued output is small again, then gives the event loop a turn. */
export async function relieve(stream: unknown, signal?: AbortSignal, failure?: WriteFailure): Promise<void> {
  while (pendingBytes(stream) > MAX_BACKLOG_BYTES && !signal?.aborted && failure?.error === undefined) {
    // Polling rather than 'drain': the queue sits in whichever stream the zip currently feeds.
    await sleep(1);
  }
  await yieldToLoop();
  if (failure?.error !== undefined) throw failure.error;
}
