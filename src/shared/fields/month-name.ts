const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "Dec 2025" for the month key "2025-12", as analysts write months in a report (on screen and in a drill-down's title); anything that is not
 * such a key (the row of invalid dates) is shown as it is. Only the words change: rows keep the
 * key's order, which is the calendar's.
 */
export function monthName(key: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(key);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${month} ${m[1]}` : key;
}
