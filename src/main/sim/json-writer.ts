import type { Frag, JsonSink } from './dataset';

/**
 * Appends text to one growing UTF-8 buffer. Joining thousands of record strings into one JS string
 * and then encoding it costs several times more than encoding each piece straight into a buffer.
 */
export class BufferWriter implements JsonSink {
  private buf: Buffer;
  private len = 0;

  constructor(initial = 1 << 16) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  text(text: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 code unit.
    const need = this.len + text.length * 3;
    if (need > this.buf.length) this.grow(need);
    this.len += this.buf.write(text, this.len, 'utf8');
  }

  frag(f: Frag): void {
    const need = this.len + f.bytes.length;
    if (need > this.buf.length) this.grow(need);
    this.buf.set(f.bytes, this.len);
    this.len = need;
  }

  private grow(need: number): void {
    const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  /** The bytes written so far (a view, not a copy). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}
