/**
 * The start of a shipment search's answer, read from its first bytes while the rest still arrives: the
 * `total` and the first records of `shipments`. The window shows these first rows while the rest of
 * the body comes and main decodes, parses and checks it (a 10,000-record answer is ~26 MB: each of the
 * three takes a few hundred milliseconds on two cores). Only the head's bytes are decoded and parsed.
 *
 * A head is what the whole answer will say only when the whole answer checks: the caller shows it as
 * provisional and replaces it with the answer, or with the error the answer turns out to be.
 */

import { isJsonSpace, utf8BomLength } from './json-bytes';

export interface AnswerHead {
  /** `total` as the answer gives it. */
  total: number;
  /** The first records of `shipments`, parsed but not checked. */
  records: unknown[];
  /** True when these are every record of the answer (its list ended within the head). */
  complete: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/** Decodes as the client does: UTF-8, a bad sequence U+FFFD. */
const decoder = new TextDecoder('utf-8');

/** Thrown inside the scan when the bytes are not the JSON it expects; the head is then not read. */
class NotAHead extends Error {}

/** Reads a JSON value's bytes without building it: enough to find where it ends. */
class Scanner {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
  ) {}

  space(): void {
    while (isJsonSpace(this.bytes[this.at])) this.at++;
  }

  expect(byte: number): void {
    this.space();
    if (this.bytes[this.at] !== byte) throw new NotAHead();
    this.at++;
  }

  peek(): number | undefined {
    this.space();
    return this.bytes[this.at];
  }

  /** Past a string whose opening quote is at `at`. */
  skipString(): void {
    const { bytes } = this;
    let i = this.at + 1;
    for (;;) {
      const q = bytes.indexOf(QUOTE, i);
      if (q < 0) throw new NotAHead();
      // An escaped quote has an odd number of backslashes before it.
      let slashes = 0;
      while (bytes[q - 1 - slashes] === BACKSLASH) slashes++;
      i = q + 1;
      if (slashes % 2 === 0) break;
    }
    this.at = i;
  }

  /** Past the value that starts here (spaces before it skipped). */
  skipValue(): void {
    this.space();
    const { bytes } = this;
    const first = bytes[this.at];
    if (first === QUOTE) return this.skipString();
    if (first !== OPEN_OBJECT && first !== OPEN_LIST) {
      // A number, true, false or null: up to the next delimiter.
      const start = this.at;
      while (this.at < bytes.length) {
        const b = bytes[this.at]!;
        if (b === COMMA || b === CLOSE_OBJECT || b === CLOSE_LIST || isJsonSpace(b)) break;
        this.at++;
      }
      if (this.at === start) throw new NotAHead();
      return;
    }
    let depth = 0;
    while (this.at < bytes.length) {
      const b = bytes[this.at]!;
      if (b === QUOTE) {
        this.skipString();
        continue;
      }
      if (b === OPEN_OBJECT || b === OPEN_LIST) depth++;
      else if (b === CLOSE_OBJECT || b === CLOSE_LIST) depth--;
      this.at++;
      if (depth === 0) return;
    }
    throw new NotAHead();
  }

  /** The JSON text of `bytes[from, to)`, parsed. */
  parse(from: number, to: number): unknown {
    return JSON.parse(decoder.decode(this.bytes.subarray(from, to)));
  }
}

/** `"total": N }` at the very end of the body: the member that follows the list, read without the list. */
const TRAILING_TOTAL = /"total"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*\}\s*$/;

/**
 * The answer's `total` and its first `rows` records, or null when the bytes do not start as a search's
 * answer does (an object whose `shipments` is a list, `total` a number before it or, when the bytes are
 * the `whole` body, as its last member), or end before the head does. A null costs nothing but the
 * head: the answer is shown once it is parsed, as before.
 */
export function readAnswerHead(bytes: Uint8Array, rows: number, whole = true): AnswerHead | null {
  try {
    return scanHead(bytes, rows, whole);
  } catch (e) {
    if (e instanceof NotAHead || e instanceof SyntaxError) return null;
    throw e;
  }
}

function scanHead(bytes: Uint8Array, rows: number, whole: boolean): AnswerHead | null {
  // After a byte-order mark, which the client's decoding drops too.
  const s = new Scanner(bytes, utf8BomLength(bytes));
  s.expect(OPEN_OBJECT);
  let total: unknown;
  for (;;) {
    const next = s.peek();
    // The object ended before its list, or is not JSON.
    if (next !== QUOTE) return null;
    const keyStart = s.at;
    s.skipString();
    const key = s.parse(keyStart, s.at);
    s.expect(COLON);
    s.space();
    const valueStart = s.at;
    if (key !== 'shipments') {
      s.skipValue();
      if (key === 'total') total = s.parse(valueStart, s.at);
      if (s.peek() === COMMA) s.at++;
      continue;
    }
    if (total === undefined) {
      // The list comes first: the total is read from the body's end, where it then is (only the whole
      // body has it: a start cut within a record may end as a member named "total" does).
      if (!whole) return null;
      const tail = decoder.decode(bytes.subarray(Math.max(0, bytes.length - 64)));
      const m = TRAILING_TOTAL.exec(tail);
      if (!m) return null;
      total = Number(m[1]);
    }
    if (typeof total !== 'number' || !Number.isSafeInteger(total) || total < 0) return null;
    s.expect(OPEN_LIST);
    const first = s.at;
    let last = first;
    let count = 0;
    let complete = false;
    if (s.peek() === CLOSE_LIST) complete = true;
    while (!complete && count < rows) {
      s.skipValue();
      last = s.at;
      count++;
      const after = s.peek();
      if (after === CLOSE_LIST) complete = true;
      else if (after === COMMA) s.at++;
      else return null;
    }
    return { total, records: count === 0 ? [] : parseList(s, first, last), complete };
  }
}

function parseList(s: Scanner, from: number, to: number): unknown[] {
  const text = `[${decoder.decode(s.bytes.subarray(from, to))}]`;
  const list: unknown = JSON.parse(text);
  if (!Array.isArray(list)) throw new NotAHead();
  return list;
}
