import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { createDeflateRaw, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { recycleSheetBuffers } from '../../src/main/export/sheet-buffers';

interface SheetStream {
  pipe(destination: NodeJS.WritableStream): void;
  write(data: Buffer): void;
  end(): void;
}

// exceljs's own sheet stream: every worksheet of its streaming writer writes through one, in batch mode.
const StreamBuf = createRequire(import.meta.url)('exceljs/lib/utils/stream-buf') as new (options: {
  bufSize: number;
  batch: boolean;
}) => SheetStream;

const BUFFER_BYTES = 64 * 1024;

/**
 * Writes ~5 MB of distinct text through a sheet stream into zlib's raw deflate (what the zip
 * compresses a sheet with), holding the writer back while deflate is four buffers behind, as the
 * export does. Answers how many distinct buffers reached deflate, and what went in and came out.
 */
async function pump(recycle: boolean): Promise<{ buffers: number; input: Buffer; inflated: Buffer }> {
  const sheet = new StreamBuf({ bufSize: BUFFER_BYTES, batch: true });
  if (recycle) expect(recycleSheetBuffers(sheet)).toBe(true);
  const deflate = createDeflateRaw({ level: 1 });
  const seen = new Set<Buffer>();
  const write = deflate.write.bind(deflate) as (chunk: Buffer, ...rest: unknown[]) => boolean;
  deflate.write = ((chunk: Buffer, ...rest: unknown[]) => {
    seen.add(chunk);
    return write(chunk, ...rest);
  }) as typeof deflate.write;
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  sheet.pipe(deflate);
  const pieces: Buffer[] = [];
  for (let i = 0; i < 3_000; i++) {
    const piece = Buffer.from(
      `<row r="${i}"><c><v>${randomBytes(500 + (i % 700)).toString('hex')}</v></c></row>`,
    );
    pieces.push(piece);
    sheet.write(piece);
    while (deflate.writableLength > 4 * BUFFER_BYTES) await new Promise((resolve) => setImmediate(resolve));
  }
  sheet.end();
  await ended;
  return { buffers: seen.size, input: Buffer.concat(pieces), inflated: inflateRawSync(Buffer.concat(out)) };
}

describe('recycleSheetBuffers', () => {
  it('fills the buffers deflate has finished with again, and deflate still gets every byte in order', async () => {
    const plain = await pump(false);
    const recycled = await pump(true);
    // Without it, one new buffer per 64 KB written.
    expect(plain.input.length).toBeGreaterThan(60 * BUFFER_BYTES);
    expect(plain.buffers).toBeGreaterThan(60);
    expect(plain.inflated.equals(plain.input)).toBe(true);
    // With it, no more than are in flight at once (four behind, one being filled, one piped, the last part).
    expect(recycled.buffers).toBeLessThanOrEqual(8);
    expect(recycled.inflated.length).toBe(recycled.input.length);
    expect(recycled.inflated.equals(recycled.input)).toBe(true);
  });

  it('leaves a stream that is not exceljs’s sheet stream as it is', () => {
    const other = new PassThrough();
    const write = other.write;
    expect(recycleSheetBuffers(other)).toBe(false);
    expect(other.write).toBe(write);
    expect(recycleSheetBuffers(undefined)).toBe(false);
    expect(recycleSheetBuffers({ bufSize: 1024, buffers: [] })).toBe(false);
  });
});
