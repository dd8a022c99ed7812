/**
 * exceljs's sheet stream (its StreamBuf, in batch mode) copies the XML it is given into buffers of its
 * own and hands each full one to the zip. It allocates a new buffer every time: 100,000 × 88 cells are
 * ~380 MB of XML, so ~380 fresh 1 MB buffers, each freed only when V8 collects its wrapper. V8 collects
 * for memory outside its heap only after ~64 MB more of it, and freed buffers of that size stay in the
 * C heap, so the process held tens of MB of spent sheet buffers at any time (its glibc heap grew by
 * 16–72 MB during such an export; 13–22 MB with the buffers reused).
 *
 * A buffer the zip has taken is free again once the zip's deflate stream calls back for it: zlib has
 * then read all of it. From then on it is filled again instead of a new one. The internals are read
 * defensively: if a future exceljs lacks them, the stream is left as it is and allocates as before.
 */

/** One of StreamBuf's buffers (its ReadWriteBuf): `buffer` is written from `iWrite`, read from `iRead`. */
interface SheetBuffer {
  buffer: Buffer;
  iRead: number;
  iWrite: number;
  size: number;
}

interface SheetStreamInternals {
  bufSize: number;
  buffers: SheetBuffer[];
  _getWritableBuffer(): SheetBuffer;
  _pipe(chunk: SheetBuffer): Promise<void>;
}

function isSheetStream(stream: unknown): stream is SheetStreamInternals {
  const s = stream as Partial<SheetStreamInternals> | null | undefined;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.bufSize === 'number' &&
    Array.isArray(s.buffers) &&
    typeof s._getWritableBuffer === 'function' &&
    typeof s._pipe === 'function'
  );
}

function isWhole(b: SheetBuffer, size: number): boolean {
  return (
    b.size === size &&
    Buffer.isBuffer(b.buffer) &&
    b.buffer.length === size &&
    b.iRead === 0 &&
    b.iWrite === size
  );
}

/**
 * Makes an exceljs sheet stream fill the buffers its pipe has finished with instead of allocating new
 * ones. Answers whether it could (false: an exceljs whose stream differs, left unchanged).
 */
export function recycleSheetBuffers(stream: unknown): boolean {
  if (!isSheetStream(stream)) return false;
  const free: SheetBuffer[] = [];
  const allocate = stream._getWritableBuffer.bind(stream);
  const pipe = stream._pipe.bind(stream);
  stream._getWritableBuffer = (): SheetBuffer => {
    const last = stream.buffers[stream.buffers.length - 1];
    if (last !== undefined && last.iWrite < last.size) return last;
    const reused = free.pop();
    if (reused === undefined || reused.size !== stream.bufSize) return allocate();
    reused.iRead = 0;
    reused.iWrite = 0;
    stream.buffers.push(reused);
    return reused;
  };
  stream._pipe = async (chunk: SheetBuffer): Promise<void> => {
    // Only a whole buffer goes to the pipe as itself (a part is copied out first), and only once every
    // pipe has called back is it no longer read.
    const whole = isWhole(chunk, stream.bufSize);
    await pipe(chunk);
    if (whole) free.push(chunk);
  };
  return true;
}
