/** Byte-level facts of JSON text in UTF-8, shared by the readers of an answer's bytes. */

/** Whether `b` is one of JSON's four blanks (space, line feed, carriage return, tab). */
export function isJsonSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** The length of a UTF-8 byte-order mark at the start of `bytes` (3), or 0: the client's decoding drops it. */
export function utf8BomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
