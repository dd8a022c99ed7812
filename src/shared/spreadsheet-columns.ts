/**
 * A spreadsheet column's letters from its 0-based index, as Excel names it (0 → A, 25 → Z, 26 → AA):
 * the columns of an export's sheets, and the name of a file's column that has no header.
 */
export function columnLetters(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}
