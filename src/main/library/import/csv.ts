/**
 * RFC 4180 CSV: quoted fields with doubled quotes, CRLF or LF line ends, newlines inside quotes.
 * Strict on what would silently lose data: an unterminated quote (a truncated file) or text after a
 * closing quote is an error, not a guess.
 */
export function parseCsv(input: string): { ok: true; rows: string[][] } | { ok: false; message: string } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  const n = text.length;
  let atFieldStart = true;
  while (i < n) {
    const ch = text[i]!;
    if (atFieldStart && ch === '"') {
      const startLine = line;
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          closed = true;
          i++;
          break;
        }
        if (c === '\n') line++;
        field += c;
        i++;
      }
      if (!closed) return { ok: false, message: `a quoted field opened on line ${startLine} never ends (is the file cut off?)` };
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        return { ok: false, message: `unexpected text after a closing quote on line ${line}` };
      }
      atFieldStart = false;
      continue;
    }
    if (ch === ',') {
      row.push(field);
      field = '';
      atFieldStart = true;
      i++;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      atFieldStart = true;
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      continue;
    }
    if (ch === '"') return { ok: false, message: `a stray quote inside an unquoted field on line ${line}` };
    field += ch;
    atFieldStart = false;
    i++;
  }
  if (!atFieldStart || field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return { ok: true, rows };
}
