import { describe, expect, it } from 'vitest';
import { fromRegionalDate } from '../../src/main/library/import/convert';

describe('dates as other tools write them, read as yyyy-MM-dd on import', () => {
  it.each([
    // Regional orders, under the file's day-first or month-first reading.
    ['31.12.2025', 'dmy', '2025-12-31'],
    ['12/31/25', 'mdy', '2025-12-31'],
    ['2025/12/31', 'dmy', '2025-12-31'],
    // The month by name: the same day under either reading.
    ['5-Jan-25', 'mdy', '2025-01-05'],
    ['05-JAN-2025', 'dmy', '2025-01-05'],
    ['6 January 2025', 'mdy', '2025-01-06'],
    ['Jan 6 2025', 'dmy', '2025-01-06'],
    ['January 6, 2025', 'mdy', '2025-01-06'],
    ['Sept. 3, 2025', 'mdy', '2025-09-03'],
    ['Mar 1st, 2024', 'mdy', '2024-03-01'],
    ['29-Feb-24', 'dmy', '2024-02-29'],
    // Midnight after a day, as pandas, databases and spreadsheets write timestamps of a date column.
    ['2025-01-05 00:00:00', 'mdy', '2025-01-05'],
    ['2025-01-05T00:00:00.000Z', 'mdy', '2025-01-05'],
    ['2025-01-05T00:00+00:00', 'mdy', '2025-01-05'],
    ['31.12.2025 00:00', 'dmy', '2025-12-31'],
    ['5-Jan-25 00:00:00', 'dmy', '2025-01-05'],
    // .NET's and US Excel's midnight.
    ['1/13/2025 12:00:00 AM', 'mdy', '2025-01-13'],
    ['13/1/2025 12:00 am', 'dmy', '2025-01-13'],
    // A date-and-time cell as Excel saves it to CSV: the hour without its leading zero.
    ['1/13/2025 0:00', 'mdy', '2025-01-13'],
    ['13/01/2025 0:00:00', 'dmy', '2025-01-13'],
    // yyyyMMdd, as ERP and customs systems export days.
    ['20250105', 'dmy', '2025-01-05'],
    ['19991231', 'mdy', '1999-12-31'],
  ] as const)('%s (%s) → %s', (text, order, day) => {
    expect(fromRegionalDate(text, order)).toBe(day);
  });

  it.each([
    // Not a day of the calendar.
    ['29-Feb-25', 'dmy'],
    ['31 April 2025', 'dmy'],
    ['Foo 6 2025', 'mdy'],
    // Another time of day, or midnight in another zone: the day is not the one written, so it stays text.
    ['2025-01-05 14:30:00', 'mdy'],
    ['1/13/2025 9:00', 'mdy'],
    ['2025-01-05T00:00:00+02:00', 'mdy'],
    // Not a date at all.
    ['Mayday 5 2025', 'mdy'],
    ['5 Jan', 'dmy'],
    // Noon is not midnight; eight digits that are not a day of the calendar, or not yyyyMMdd.
    ['1/13/2025 12:00:00 PM', 'mdy'],
    ['20251305', 'dmy'],
    ['05012025', 'dmy'],
    ['18991231', 'dmy'],
  ] as const)('%s (%s) stays as written', (text, order) => {
    expect(fromRegionalDate(text, order)).toBeNull();
  });
});
