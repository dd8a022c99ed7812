/**
 * Spreadsheet formula injection in CSV ("CSV injection", OWASP): Excel and LibreOffice read a CSV
 * field that starts with `=`, `+`, `-` or `@` (and, in Excel, a leading tab or carriage return) as a
 * formula, so an importer name like `=HYPERLINK("http://x","click")` from the service would become a
 * live link or a DDE command in the analyst's spreadsheet. Following OWASP, such a field is written
 * with a leading single quote, which both programs then show as plain text.
 *
 * Not every leading `+` or `-` is escaped, because the quote is visible in the cell and the service
 * fills empty fields with "-" and writes phone numbers like "+44 20 7946 0000":
 * - a plain number ("-5", "+3.25", "1.5e3") is left alone: a spreadsheet reads it as that number,
 *   which is what the analyst wants, and a number cannot call anything;
 * - text made only of a leading `+`/`-` followed by digits, spaces, `(`, `)`, `.`, `/` and `-` (phone
 *   numbers, "-", "--") is left alone: without letters, `:`, `!`, `|` or quotes a formula has no
 *   function name, cell or range reference, DDE link or string, so the worst a spreadsheet can do
 *   is show arithmetic or an error; it can neither run nor fetch anything.
 * Everything else starting with a trigger character is escaped, in every column: a "numeric" column
 * holds the service's text too, and a formula there is as dangerous as anywhere else.
 *
 * The app's CSV import undoes exactly this escaping (`restoreCsvFormulaText`), so export → import is
 * lossless. For that to hold, text that already starts with a quote followed by a trigger character
 * or another quote gets one more quote, and the importer removes exactly one.
 */

const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);
const QUOTE = "'";
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INERT_SIGNED_TEXT = /^[+-][\d ()./-]*$/;

function isEscapeLead(c: string | undefined): boolean {
  return c !== undefined && (TRIGGERS.has(c) || c === QUOTE);
}

/** The text to write to a CSV field so a spreadsheet shows it as text, never evaluates it. */
export function neutraliseCsvFormula(text: string): string {
  const first = text[0];
  if (first === undefined) return text;
  if (first === QUOTE) return isEscapeLead(text[1]) ? QUOTE + text : text;
  if (!TRIGGERS.has(first)) return text;
  if (PLAIN_NUMBER.test(text) || INERT_SIGNED_TEXT.test(text)) return text;
  return QUOTE + text;
}

/** The inverse of `neutraliseCsvFormula`, for the app's own CSV import. */
export function restoreCsvFormulaText(text: string): string {
  return text[0] === QUOTE && isEscapeLead(text[1]) ? text.slice(1) : text;
}
