/**
 * A streaming reader of SpreadsheetML parts (sheets, shared strings), written for speed: a general
 * XML parser (saxes) took 4.5× the time of inflating and decoding the same 268 MB sheet, which alone
 * would spend the import's time budget. It reads exactly what a workbook's data needs — rows, cells,
 * values, inline and shared strings, styles and types — and nothing of the rest, with or without
 * namespace prefixes (`<x:row>`), with or without cell addresses (`r` is optional).
 */

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
/** Excel's escape for characters XML cannot carry, and for a literal "_x": `_x000D_`, `_x005F_`. */
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

export function decodeXmlText(raw: string): string {
  if (raw.indexOf('&') < 0) return raw;
  return raw.replace(
    ENTITY,
    (_m, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name) return NAMED[name] ?? '';
      const code = dec !== undefined ? Number(dec) : parseInt(hex ?? '', 16);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    },
  );
}

/** Text of a string cell or shared string: entities, then Excel's `_xHHHH_` escapes. */
export function decodeCellText(raw: string): string {
  const text = decodeXmlText(raw);
  return text.indexOf('_x') < 0
    ? text
    : text.replace(EXCEL_ESCAPE, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

const ATTR = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function attributes(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(ATTR)) {
    const name = m[1]!;
    const local = name.slice(name.indexOf(':') + 1);
    out.set(local, decodeXmlText(m[2] ?? m[3] ?? ''));
  }
  return out;
}

/** A column's 0-based index from a cell address ("AB12" → 27); -1 when there are no letters. */
export function columnIndex(address: string): number {
  let n = 0;
  let i = 0;
  for (; i < address.length; i++) {
    const c = address.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

/** A formula cell the file holds no computed value for (saved by a tool that does not calculate). */
export const NO_RESULT: unique symbol = Symbol('formula without a stored result');
export type CellValue = string | number | boolean | null | typeof NO_RESULT;

export interface SheetRow {
  /** 1-based row number in the sheet. */
  number: number;
  /** Values by 0-based column; holes are empty cells. */
  values: CellValue[];
  /** Style index per column (for number formats); -1 or a hole when none. */
  styles: number[];
  /** The row is hidden (by the sheet's filter or by hand). */
  hidden?: true;
}

/** Text of every `<t>` in a fragment (inline string or shared string), skipping phonetic runs. */
function stringItemText(fragment: string): string {
  let body = fragment;
  if (body.indexOf('rPh') >= 0) body = body.replace(/<(?:\w+:)?rPh\b[\s\S]*?<\/(?:\w+:)?rPh>/g, '');
  let out = '';
  const re = /<(?:\w+:)?t(?:\s[^>]*)?>([\s\S]*?)<\/(?:\w+:)?t>|<(?:\w+:)?t(?:\s[^>]*)?\/>/g;
  for (const m of body.matchAll(re)) out += m[1] ?? '';
  return decodeCellText(out);
}

/** The value of attribute `name` in a start tag, written `name="…"` (what every writer we know does). */
function attr(tag: string, name: string): string | null {
  const key = ` ${name}="`;
  let i = tag.indexOf(key);
  if (i < 0) {
    // Also after a line break or tab, or in single quotes: read the general way.
    if (tag.indexOf(`${name}=`) < 0) return null;
    return attributes(tag).get(name) ?? null;
  }
  i += key.length;
  const end = tag.indexOf('"', i);
  return end < 0 ? null : tag.slice(i, end);
}

/** The text between `<open…>` and `</close>` inside `text` from `from`, or null. */
function elementText(text: string, open: string, close: string, from: number, to: number): string | null {
  let i = text.indexOf(open, from);
  while (i >= 0 && i < to) {
    const after = text.charCodeAt(i + open.length);
    // `<v>` or `<v attr…>`, but not `<vm…>`.
    if (after === 62 || after === 32 || after === 9 || after === 10 || after === 13) {
      const gt = text.indexOf('>', i + open.length);
      if (gt < 0 || gt >= to) return null;
      if (text.charCodeAt(gt - 1) === 47) return ''; // <t/>
      const end = text.indexOf(close, gt + 1);
      return end < 0 || end > to ? null : text.slice(gt + 1, end);
    }
    i = text.indexOf(open, i + open.length);
  }
  return null;
}

/** Cell types (`t`): numbers unless said otherwise; an unknown type is read as a number. */
const T_NUMBER = 0;
const T_SHARED = 1;
const T_STR = 2;
const T_INLINE = 3;
const T_BOOL = 4;
const T_ERROR = 5;
const T_DATE = 6;

/** The type named by `text[from, to)`, without slicing it out. */
function cellType(text: string, from: number, to: number): number {
  const len = to - from;
  if (len === 1) {
    const c = text.charCodeAt(from);
    return c === 115 ? T_SHARED : c === 98 ? T_BOOL : c === 101 ? T_ERROR : c === 100 ? T_DATE : T_NUMBER;
  }
  if (len === 3 && text.startsWith('str', from)) return T_STR;
  if (len === 9 && text.startsWith('inlineStr', from)) return T_INLINE;
  return T_NUMBER;
}

/** A `<v>`'s text as the cell's value under its type. */
function cellValue(type: number, v: string, shared: readonly string[]): CellValue {
  switch (type) {
    case T_SHARED:
      return shared[Number(v)] ?? '';
    case T_STR:
      return decodeCellText(v);
    case T_BOOL:
      return v.trim() === '1';
    case T_ERROR:
      return decodeXmlText(v);
    case T_DATE:
      return decodeXmlText(v).trim();
    default: {
      const n = Number(v);
      return v.trim() === '' ? null : Number.isFinite(n) ? n : decodeXmlText(v);
    }
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Parses one row's inner XML into values. `p` is the namespace prefix the sheet uses ("" or "x:"),
 * `shared` resolves `t="s"` indices. Numbers stay numbers (the caller reads them through the style's
 * number format); `t="str"`, inline and shared strings are text.
 *
 * This loop runs once per cell, millions of times per import, so the cells every writer we know
 * produces — `<c r="A1" s="3" t="str"><v>…</v></c>`, in any attribute order, or empty — are read
 * here in one pass over their characters, slicing out nothing but the value. A row holding any
 * other shape (a formula, an inline string, CDATA, a `<v>` with attributes) is read again by the
 * general reader below, cell by cell.
 */
export function parseRow(inner: string, number: number, shared: readonly string[], p = ''): SheetRow {
  const values: CellValue[] = [];
  const styles: number[] = [];
  const openC = `<${p}c`;
  const closeC = `</${p}c>`;
  const openV = `<${p}v>`;
  const closeV = `</${p}v>`;
  const len = inner.length;
  let col = -1;
  let pos = 0;
  for (;;) {
    const at = inner.indexOf(openC, pos);
    if (at < 0) break;
    let i = at + openC.length;
    let ch = inner.charCodeAt(i);
    if (!(isSpace(ch) || ch === 62 || ch === 47)) return parseRowGeneral(inner, number, shared, p);
    let addressed = -1;
    let style = -1;
    let type = T_NUMBER;
    // Attributes: name="value" or name='value', names with or without a prefix.
    for (;;) {
      while (isSpace(ch)) ch = inner.charCodeAt(++i);
      if (ch === 62 || ch === 47 || i >= len) break;
      let local = i;
      while (i < len && ch !== 61 && !isSpace(ch)) {
        if (ch === 58) local = i + 1;
        ch = inner.charCodeAt(++i);
      }
      const nameEnd = i;
      while (isSpace(ch)) ch = inner.charCodeAt(++i);
      if (ch !== 61) return parseRowGeneral(inner, number, shared, p);
      ch = inner.charCodeAt(++i);
      while (isSpace(ch)) ch = inner.charCodeAt(++i);
      if (ch !== 34 && ch !== 39) return parseRowGeneral(inner, number, shared, p);
      const valueStart = i + 1;
      const valueEnd = inner.indexOf(ch === 34 ? '"' : "'", valueStart);
      if (valueEnd < 0) return parseRowGeneral(inner, number, shared, p);
      i = valueEnd + 1;
      ch = inner.charCodeAt(i);
      if (nameEnd - local !== 1) continue;
      const name = inner.charCodeAt(local);
      if (name === 114) {
        // r: the column's letters ("AB12" → 27); none leaves the cell after the previous one.
        let n = 0;
        let k = valueStart;
        for (; k < valueEnd; k++) {
          const c = inner.charCodeAt(k) | 32;
          if (c < 97 || c > 122) break;
          n = n * 26 + (c - 96);
        }
        addressed = k === valueStart ? -1 : n - 1;
      } else if (name === 115) {
        let n = 0;
        for (let k = valueStart; k < valueEnd; k++) {
          const d = inner.charCodeAt(k) - 48;
          if (d < 0 || d > 9) return parseRowGeneral(inner, number, shared, p);
          n = n * 10 + d;
        }
        style = n;
      } else if (name === 116) type = cellType(inner, valueStart, valueEnd);
    }
    col = addressed >= 0 ? addressed : col + 1;
    if (style >= 0) styles[col] = style;
    if (ch === 47) {
      // <c .../>: an empty (perhaps styled) cell
      if (inner.charCodeAt(i + 1) !== 62) return parseRowGeneral(inner, number, shared, p);
      pos = i + 2;
      continue;
    }
    if (ch !== 62 || type === T_INLINE) return parseRowGeneral(inner, number, shared, p);
    const content = i + 1;
    if (inner.startsWith(closeC, content)) {
      pos = content + closeC.length; // <c …></c>: empty
      values[col] = null;
      continue;
    }
    if (!inner.startsWith(openV, content)) return parseRowGeneral(inner, number, shared, p);
    const vStart = content + openV.length;
    // Text holds no "<" (XML escapes it): the next one is the value's end tag, or CDATA.
    const vEnd = inner.indexOf('<', vStart);
    if (vEnd < 0 || !inner.startsWith(closeV, vEnd) || !inner.startsWith(closeC, vEnd + closeV.length))
      return parseRowGeneral(inner, number, shared, p);
    pos = vEnd + closeV.length + closeC.length;
    values[col] = cellValue(type, inner.slice(vStart, vEnd), shared);
  }
  return { number, values, styles };
}

/** parseRow for any shape of cell: the general, slower reading of every cell of a row. */
function parseRowGeneral(inner: string, number: number, shared: readonly string[], p: string): SheetRow {
  const values: CellValue[] = [];
  const styles: number[] = [];
  const openC = `<${p}c`;
  const closeC = `</${p}c>`;
  let col = -1;
  let pos = 0;
  for (;;) {
    let at = inner.indexOf(openC, pos);
    // Skip other elements starting with the same letters (none in a row today, but cheap to be sure).
    while (at >= 0) {
      const ch = inner.charCodeAt(at + openC.length);
      if (ch === 32 || ch === 62 || ch === 47 || ch === 9 || ch === 10 || ch === 13) break;
      at = inner.indexOf(openC, at + openC.length);
    }
    if (at < 0) break;
    const gt = inner.indexOf('>', at);
    if (gt < 0) break;
    const tag = inner.slice(at, gt);
    const r = attr(tag, 'r');
    const sText = attr(tag, 's');
    const t = attr(tag, 't') ?? 'n';
    const addressed = r === null ? -1 : columnIndex(r);
    col = addressed >= 0 ? addressed : col + 1;
    if (sText !== null) styles[col] = Number(sText);
    if (inner.charCodeAt(gt - 1) === 47) {
      pos = gt + 1; // <c .../>: an empty (perhaps styled) cell
      continue;
    }
    let end = inner.indexOf(closeC, gt + 1);
    if (end < 0) end = inner.length;
    pos = end + closeC.length;
    if (t === 'inlineStr') {
      const is = elementText(inner, `<${p}is`, `</${p}is>`, gt + 1, end);
      values[col] = is === null ? '' : stringItemText(is);
      continue;
    }
    const v = elementText(inner, `<${p}v`, `</${p}v>`, gt + 1, end);
    if (v === null) {
      const f = inner.indexOf(`<${p}f`, gt + 1);
      values[col] = f >= 0 && f < end ? NO_RESULT : null;
      continue;
    }
    values[col] = cellValue(cellType(t, 0, t.length), v, shared);
  }
  return { number, values, styles };
}

const ROW_OPEN = /<(?:([A-Za-z_][\w.-]*):)?row\b([^>]*?)(\/?)>/g;

/**
 * Feeds a sheet's XML text in chunks and hands out its rows as they complete. Holds at most one
 * unfinished row plus one chunk, so memory does not grow with the sheet.
 */
export class SheetRowScanner {
  private buf = '';
  private lastRow = 0;
  private closeTag = '</row>';

  constructor(private readonly shared: readonly string[]) {}

  /** Adds text and returns the rows it completed. */
  push(text: string, out: SheetRow[]): void {
    const buf = this.buf.length > 0 ? this.buf + text : text;
    let pos = 0;
    for (;;) {
      ROW_OPEN.lastIndex = pos;
      const m = ROW_OPEN.exec(buf);
      if (!m) {
        // Keep a tail that may hold the start of the next row tag.
        const lt = buf.lastIndexOf('<');
        pos = lt >= 0 && lt >= pos ? lt : buf.length;
        break;
      }
      const prefix = m[1];
      this.closeTag = prefix ? `</${prefix}:row>` : '</row>';
      const attrs = m[2] ?? '';
      const rAttr = /\br\s*=\s*"(\d+)"/.exec(attrs);
      if (m[3] === '/') {
        this.lastRow = rAttr ? Number(rAttr[1]) : this.lastRow + 1;
        pos = m.index + m[0].length;
        continue;
      }
      const innerStart = m.index + m[0].length;
      const end = buf.indexOf(this.closeTag, innerStart);
      if (end < 0) {
        pos = m.index;
        break;
      }
      const number = rAttr ? Number(rAttr[1]) : this.lastRow + 1;
      this.lastRow = number;
      const row = parseRow(buf.slice(innerStart, end), number, this.shared, prefix ? `${prefix}:` : '');
      if (/\bhidden\s*=\s*"(?:1|true)"/.test(attrs)) row.hidden = true;
      out.push(row);
      pos = end + this.closeTag.length;
    }
    this.buf = buf.slice(pos);
  }

  /** Bytes of text held back waiting for a row's end (a row larger than this is refused by the caller). */
  get pending(): number {
    return this.buf.length;
  }
}

/** Reads a shared-strings part in chunks; every `<si>` becomes one string, in order. */
export class SharedStringScanner {
  private buf = '';
  readonly strings: string[] = [];
  chars = 0;

  push(text: string): void {
    const buf = this.buf.length > 0 ? this.buf + text : text;
    const re = /<(?:\w+:)?si\b[^>]*?(\/?)>/g;
    let pos = 0;
    for (;;) {
      re.lastIndex = pos;
      const m = re.exec(buf);
      if (!m) {
        const lt = buf.lastIndexOf('<');
        pos = lt >= pos ? lt : buf.length;
        break;
      }
      if (m[1] === '/') {
        this.strings.push('');
        pos = m.index + m[0].length;
        continue;
      }
      const start = m.index + m[0].length;
      const close = /<\/(?:\w+:)?si>/g;
      close.lastIndex = start;
      const c = close.exec(buf);
      if (!c) {
        pos = m.index;
        break;
      }
      const s = stringItemText(buf.slice(start, c.index));
      this.chars += s.length;
      this.strings.push(s);
      pos = c.index + c[0].length;
    }
    this.buf = buf.slice(pos);
  }
}
