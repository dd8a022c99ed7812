/**
 * Bytes of a text file (CSV or JSON) to a string, or the reason they cannot be read as text. Only
 * what can be known for certain is decoded: UTF-8 (with or without a byte order mark) and UTF-16
 * with its byte order mark (Excel's "Unicode text"). Anything else is refused rather than guessed
 * at: a lenient decoder turns every byte of a Windows-1252 "Pérez" it does not understand into
 * U+FFFD, and the garbled name would be stored for good.
 */

export type DecodedText =
  | { ok: true; text: string; encoding: 'utf-8' | 'utf-16le' | 'utf-16be' }
  | { ok: false; reason: 'not-utf8' | 'bad-utf16' | 'binary'; line?: number };

const LF = 0x0a;

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

function strictDecode(encoding: 'utf-8' | 'utf-16le' | 'utf-16be', bytes: Uint8Array): string | null {
  try {
    // ignoreBOM keeps the mark in the text so callers see exactly what was decoded; it is cut below.
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The 1-based line holding the first byte sequence that is not UTF-8. A line feed byte never occurs
 * inside a UTF-8 sequence, so lines can be checked one by one; only called once decoding has failed.
 */
function firstBadUtf8Line(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === LF) {
      if (strictDecode('utf-8', bytes.subarray(start, i)) === null) return line;
      line++;
      start = i + 1;
    }
  }
  return line;
}

export function decodeText(bytes: Uint8Array): DecodedText {
  let decoded: DecodedText;
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    const encoding = bytes[0] === 0xff ? 'utf-16le' : 'utf-16be';
    const text = strictDecode(encoding, bytes.subarray(2));
    decoded = text === null ? { ok: false, reason: 'bad-utf16' } : { ok: true, text, encoding };
  } else {
    const body = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? bytes.subarray(3) : bytes;
    const text = strictDecode('utf-8', body);
    if (text === null) return { ok: false, reason: 'not-utf8', line: firstBadUtf8Line(body) };
    decoded = { ok: true, text, encoding: 'utf-8' };
  }
  // A NUL is never in a CSV or JSON text: it is UTF-16 without its byte order mark, or not text at all.
  if (decoded.ok && decoded.text.includes('\u0000')) return { ok: false, reason: 'binary' };
  return decoded;
}
