/**
 * A JSON body as one-byte text: the UTF-8 bytes' text with every character beyond ASCII written as a
 * `\uXXXX` escape, which JSON.parse reads as the very same character.
 *
 * Why: a body with a single non-ASCII character decodes (`Response.text()`) to a two-byte string,
 * twice the size of the body (a 25.7 MB answer: 51 MB of heap), and V8's JSON.parse reads a two-byte
 * string more slowly than a one-byte one. An answer of shipments carries a few accented names
 * (≈1 % of its bytes), so the escaped text is one-byte, barely longer than the body, and both the
 * decoding and the parse get cheaper.
 */

import { isJsonSpace, utf8BomLength } from './json-bytes';

/** Bytes of one maximal run above ASCII, decoded as `Response.text()` does (a bad sequence is U+FFFD). */
const runDecoder = new TextDecoder('utf-8');
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function escapeUnit(unit: number): string {
  return `\\u${HEX[unit >> 8]!}${HEX[unit & 0xff]!}`;
}

function escapeUnits(text: string): string {
  let out = '';
  for (let k = 0; k < text.length; k++) out += escapeUnit(text.charCodeAt(k));
  return out;
}

/**
 * The escapes of well-formed UTF-8 in `bytes[from, to)`, or null at the first ill-formed sequence (the
 * decoder then says which characters it stands for). Decoding here rather than with TextDecoder: one
 * decoder call per run cost more than the rest of the work (a 25.7 MB answer has ~41,000 runs).
 */
function escapeUtf8(bytes: Uint8Array, from: number, to: number): string | null {
  let out = '';
  let i = from;
  while (i < to) {
    const b0 = bytes[i]!;
    let cp: number;
    let min: number;
    let n: number;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      cp = b0 & 0x1f;
      n = 1;
      min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      cp = b0 & 0x0f;
      n = 2;
      min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      cp = b0 & 0x07;
      n = 3;
      min = 0x10000;
    } else return null;
    if (i + n >= to) return null;
    for (let k = 1; k <= n; k++) {
      const b = bytes[i + k]!;
      if ((b & 0xc0) !== 0x80) return null;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return null;
    if (cp >= 0x10000) {
      const v = cp - 0x10000;
      out += escapeUnit(0xd800 + (v >> 10)) + escapeUnit(0xdc00 + (v & 0x3ff));
    } else out += escapeUnit(cp);
    i += n + 1;
  }
  return out;
}

/**
 * Text dense in characters beyond ASCII (a Chinese firm's records: several in every value) is left to
 * the decoder: an escape per character then costs more than the one-byte parse saves (a 48 MB answer
 * with two runs in each of its 880,000 values: 1.26 s against 0.34 s). Shipment answers in Latin
 * script have one run in ~600 bytes. Judged on the first bytes, and again as the runs are found.
 */
const BYTES_PER_RUN = 128;
const SLACK_RUNS = 256;
const SAMPLE_BYTES = 1 << 16;

function denseBeyondAscii(bytes: Uint8Array, from: number): boolean {
  const to = Math.min(bytes.length, from + SAMPLE_BYTES);
  let runs = 0;
  for (let i = from, prev = 0; i < to; i++) {
    const b = bytes[i]!;
    if (b >= 0x80 && prev < 0x80) runs++;
    prev = b;
  }
  return runs > (to - from) / BYTES_PER_RUN + SLACK_RUNS;
}

/**
 * The index of the first byte above ASCII in `bytes[from, bytes.length)`, or the length. Four bytes at a
 * time through `words` (the aligned part of the same memory, `head` bytes after the view's start): a
 * 25.7 MB answer has a run in ~600 bytes, and the pattern `/[\x80-\xff]+/g` over its Latin-1 text took
 * 17–32 ms of the 54–86 ms this function took then.
 */
function nextBeyondAscii(bytes: Uint8Array, words: Uint32Array, head: number, from: number): number {
  const n = bytes.length;
  let i = from;
  while (i < n && (i < head || (i - head) % 4 !== 0)) {
    if (bytes[i]! >= 0x80) return i;
    i++;
  }
  let w = (i - head) >> 2;
  while (w < words.length && (words[w]! & 0x80808080) === 0) w++;
  for (i = Math.max(i, head + w * 4); i < n; i++) if (bytes[i]! >= 0x80) return i;
  return n;
}

/**
 * The one-byte text being written: copies of the body's ASCII stretches and the escapes between them,
 * in one buffer read as Latin-1 once at the end. Joining ~84,000 string slices and escapes instead took
 * ~28 ms for a 25.7 MB answer, this ~14 ms.
 */
class OneByteText {
  private buf: Buffer;
  private length = 0;
  constructor(capacity: number) {
    this.buf = Buffer.allocUnsafe(capacity);
  }
  private room(more: number): void {
    if (this.length + more <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.length + more));
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }
  bytes(from: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.length += from.copy(this.buf, this.length, start, end);
  }
  text(ascii: string): void {
    this.room(ascii.length);
    this.length += this.buf.write(ascii, this.length, 'latin1');
  }
  toString(): string {
    return this.buf.toString('latin1', 0, this.length);
  }
  /** The text's bytes (the buffer's, not a copy). */
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

/** The most room a reader takes before the bytes come (a 10,000-record answer is ~26 MB). */
const MAX_RESERVED_BYTES = 1 << 28;

/** The one-byte text of a body, and the same text as bytes (ASCII, so also its UTF-8). */
export interface AsciiJson {
  text: string;
  bytes: Uint8Array;
}

/**
 * A body's one-byte text, written while the body arrives (`push` each chunk as it comes, `end` once it
 * has all come): for JSON.parse, the same values, or the same refusal, as the decoded text. Null from
 * `end` when the plain decoding must be used instead: the body does not start (after a byte-order mark
 * and blanks) with `{` or `[`, is dense in characters beyond ASCII, or a character beyond ASCII follows
 * a backslash that opens an escape (invalid JSON, which an escape written in its place would make
 * valid). A character is valid raw inside a string exactly where its escape is, and invalid outside one
 * either way.
 *
 * Why while it arrives: the text's buffer is written as the network brings the bytes, instead of after
 * the last one, from a copy of the whole body. Memory a process touches for the first time is costly on
 * some machines (a fresh 27 MB buffer took ~90 ms to fill on the CI kind, ~1.5 ms when touched again):
 * after the last byte, 200–330 ms went into the two copies a 25.7 MB answer took there.
 */
export class AsciiJsonReader {
  private out: OneByteText | null;
  /** The body's first bytes, until there are enough to judge its start (`begin`); null after. */
  private prefix: Buffer[] | null = [];
  private prefixLength = 0;
  /** Where the text starts: after a byte-order mark, which `Response.text()` drops. */
  private start = 0;
  /** The position in the body of the next chunk's first byte. */
  private position = 0;
  /** Backslashes that end the bytes written so far (an odd number opens an escape). */
  private slashes = 0;
  /**
   * Bytes of a run beyond ASCII that the last chunks ended in: the run may go on in the next one. Kept
   * as parts, joined once the run ends (a run as long as many chunks is then copied once).
   */
  private carry: Buffer[] | null = null;
  private runs = 0;

  /**
   * `expectedBytes`: the body's length where the response says it, so the text is rarely copied. Only
   * up to `MAX_RESERVED_BYTES` is taken at once: a length is the server's word, not yet the body.
   */
  constructor(expectedBytes = 0) {
    const expected = Math.min(Math.max(expectedBytes, 0), MAX_RESERVED_BYTES);
    // The escapes make the text a little longer than the body: room for that.
    this.out = new OneByteText(expected > 0 ? expected + (expected >> 4) + 64 : 1 << 16);
  }

  push(chunk: Uint8Array): void {
    if (!this.out) return;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.prefix) return this.write(bytes, 0);
    if (this.prefixLength === 0 && bytes.length >= SAMPLE_BYTES + 3) {
      this.prefix = null;
      return this.begin(bytes);
    }
    // A copy: the chunk is the caller's.
    this.prefix.push(Buffer.from(bytes));
    this.prefixLength += bytes.length;
    if (this.prefixLength >= SAMPLE_BYTES + 3) this.beginWithPrefix();
  }

  /** The text and its bytes, or null (see the class). */
  end(): AsciiJson | null {
    if (this.prefix) this.beginWithPrefix();
    if (this.out && this.carry) this.writeCarry();
    const out = this.out;
    this.out = null;
    return out ? { text: out.toString(), bytes: out.view() } : null;
  }

  private fail(): void {
    this.out = null;
    this.prefix = null;
    this.carry = null;
  }

  private beginWithPrefix(): void {
    const bytes = Buffer.concat(this.prefix!, this.prefixLength);
    this.prefix = null;
    this.begin(bytes);
  }

  /**
   * Judges the body's start from its first bytes (at least those the density is judged on, or the whole
   * body; a body whose first non-blank byte is not among them is left to the decoder too), then writes
   * them.
   */
  private begin(bytes: Buffer): void {
    this.start = utf8BomLength(bytes);
    let first = this.start;
    while (first < bytes.length && isJsonSpace(bytes[first])) first++;
    if ((bytes[first] !== 0x7b && bytes[first] !== 0x5b) || denseBeyondAscii(bytes, this.start))
      return this.fail();
    this.write(bytes, this.start);
  }

  /** Writes `bytes[from…]`, the body's bytes from `this.position + from` on. */
  private write(bytes: Buffer, from: number): void {
    const n = bytes.length;
    let copied = from;
    // Whether the ASCII being copied goes on from the chunk before (for the backslashes before a run).
    let continued = true;
    if (this.carry) {
      let end = from;
      while (end < n && bytes[end]! >= 0x80) end++;
      this.carry.push(Buffer.from(bytes.subarray(from, end)));
      if (end === n) {
        this.position += n;
        return;
      }
      this.writeCarry();
      copied = end;
      continued = false;
    }
    const head = (4 - (bytes.byteOffset % 4)) % 4;
    const words =
      n >= head + 4
        ? new Uint32Array(bytes.buffer, bytes.byteOffset + head, (n - head) >> 2)
        : new Uint32Array(0);
    for (let at = nextBeyondAscii(bytes, words, head, copied); at < n;) {
      if (++this.runs > (this.position + at - this.start) / BYTES_PER_RUN + SLACK_RUNS) return this.fail();
      if (this.slashesBefore(bytes, at, copied, continued) % 2 === 1) return this.fail();
      let end = at + 1;
      while (end < n && bytes[end]! >= 0x80) end++;
      this.out!.bytes(bytes, copied, at);
      copied = end;
      continued = false;
      if (end === n) {
        this.carry = [Buffer.from(bytes.subarray(at, end))];
        this.position += n;
        return;
      }
      this.writeRun(bytes, at, end);
      at = nextBeyondAscii(bytes, words, head, end);
    }
    this.out!.bytes(bytes, copied, n);
    this.slashes = this.slashesBefore(bytes, n, copied, continued);
    this.position += n;
  }

  /**
   * The backslashes right before `bytes[at]`, back to `from` (where the ASCII being copied starts), and
   * those that ended the chunks before when they reach it and that ASCII goes on from them (`continued`).
   */
  private slashesBefore(bytes: Buffer, at: number, from: number, continued: boolean): number {
    let slashes = 0;
    while (at - slashes > from && bytes[at - slashes - 1] === 0x5c) slashes++;
    return continued && at - slashes === from ? this.slashes + slashes : slashes;
  }

  private writeCarry(): void {
    const run = Buffer.concat(this.carry!);
    this.carry = null;
    this.writeRun(run, 0, run.length);
  }

  private writeRun(bytes: Uint8Array, from: number, to: number): void {
    this.out!.text(escapeUtf8(bytes, from, to) ?? escapeUnits(runDecoder.decode(bytes.subarray(from, to))));
  }
}

/** A whole body's one-byte text (see `AsciiJsonReader`), or null when it must be decoded instead. */
export function asciiJsonText(body: Uint8Array): string | null {
  const reader = new AsciiJsonReader(body.byteLength);
  reader.push(body);
  return reader.end()?.text ?? null;
}
