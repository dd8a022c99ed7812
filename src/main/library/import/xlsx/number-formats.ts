/** Excel's built-in number formats that the file does not spell out (ECMA-376 part 1, 18.8.30). */
const BUILT_IN: Readonly<Record<number, string>> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'mm-dd-yy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;[Red](#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;[Red](#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mmss.0',
  48: '##0.0E+0',
  49: '@',
};

export function builtInFormat(id: number): string | undefined {
  return BUILT_IN[id];
}

/** A format code without quoted text, escaped characters and bracketed colours or conditions. */
function bare(code: string): string {
  return code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\*./g, '')
    .replace(/\[(?!h\]|hh\]|m\]|mm\]|s\]|ss\])[^\]]*\]/gi, '');
}

/** Whether a format shows a date or time (so the number is an Excel serial day). */
export function isDateFormat(code: string): boolean {
  if (!code || code === 'General' || code === '@') return false;
  const first = bare(code).split(';')[0] ?? '';
  return /[dmyhs]/i.test(first) && !/[0#?]/.test(first.replace(/\.0+/g, ''));
}

/**
 * The order a date format shows day and month in, both as numbers: "dd/mm/yyyy" and "d.m.yy" are
 * day first, "mm/dd/yyyy" month first. Null when it does not show both as numbers (a month by name,
 * a year first, a time alone), which says nothing of how dates typed as text in the file are meant.
 */
export function dateOrderOf(code: string): 'dmy' | 'mdy' | null {
  const first = bare(code).split(';')[0] ?? '';
  const tokens = [...first.matchAll(/([dmyhs])\1*/gi)].map((m) => m[0].toLowerCase());
  let day = -1;
  let month = -1;
  let year = -1;
  tokens.forEach((t, i) => {
    if (t[0] === 'd' && t.length <= 2 && day < 0) day = i;
    if (t[0] === 'y' && year < 0) year = i;
    // An "m" right after an hour or before seconds is minutes.
    const minutes = tokens[i - 1]?.[0] === 'h' || tokens[i + 1]?.[0] === 's';
    if (t[0] === 'm' && t.length <= 2 && !minutes && month < 0) month = i;
  });
  if (day < 0 || month < 0 || (year >= 0 && year < Math.min(day, month))) return null;
  return day < month ? 'dmy' : 'mdy';
}
