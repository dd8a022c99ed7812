/**
 * Spreadsheet date-times that keep a Unix time to the microsecond. A cell holds a day count since
 * 1899-12-30 as a double; near today one step of a double is 2^-37 day (0.63 µs), so a time with up
 * to 6 decimals survives only if it is turned into the nearest double and back with exact arithmetic
 * (BigInt here), never through `seconds / 86400` and back, whose rounding errors add up to more
 * than half a microsecond. Exporter and importer use the same two functions.
 */

/** 1970-01-01 as a serial day of the 1900 date system. */
export const UNIX_EPOCH_SERIAL = 25_569;
const SECONDS_PER_DAY = 86_400n;

const SECONDS_TEXT = /^(-?)(\d+)(?:\.(\d+))?$/;

function pow10(k: number): bigint {
  return 10n ** BigInt(k);
}

/** round(n / d) for positive d, halves away from zero. */
function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n - q * d;
  if (2n * (r < 0n ? -r : r) >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}

/**
 * The double nearest to the serial day of a Unix time written as text (`1714567890.123456`), or null
 * when the text is not plain seconds ("-" or "1e9") or the day is not a positive serial.
 */
export function serialFromSecondsText(text: string): number | null {
  const m = SECONDS_TEXT.exec(text);
  if (!m) return null;
  const k = (m[3] ?? '').length;
  if (k > 9) return null;
  const scale = pow10(k);
  const units = BigInt(`${m[2]}${m[3] ?? ''}`) * (m[1] ? -1n : 1n);
  // serial = (25569 · 86400 · 10^k + units) / (86400 · 10^k)
  const q = SECONDS_PER_DAY * scale;
  const p = BigInt(UNIX_EPOCH_SERIAL) * q + units;
  if (p <= 0n) return null;
  const approx = Number(p) / Number(q);
  const e = Math.floor(Math.log2(approx));
  const shift = 52 - e;
  if (shift < 0) return null;
  let mant = divRound(p << BigInt(shift), q);
  // The approximation may put the value one binade off; keep the mantissa within 53 bits.
  let s = shift;
  while (mant >= 1n << 53n) {
    mant = divRound(mant, 2n);
    s -= 1;
  }
  return Number(mant) / 2 ** s;
}

/** The Unix time of a serial day, exactly, rounded to `decimals` digits and written as text. */
export function secondsTextFromSerial(serial: number, decimals: number): string | null {
  if (!Number.isFinite(serial) || serial <= 0 || decimals < 0 || decimals > 9) return null;
  const e = Math.floor(Math.log2(serial));
  const shift = 52 - e;
  if (shift < 0) return null;
  const mant = BigInt(serial * 2 ** shift);
  const two = 1n << BigInt(shift);
  const scale = pow10(decimals);
  // seconds · 10^k = (serial - 25569) · 86400 · 10^k = (mant - 25569 · 2^shift) · 86400 · 10^k / 2^shift
  const units = divRound((mant - BigInt(UNIX_EPOCH_SERIAL) * two) * SECONDS_PER_DAY * scale, two);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  return `${negative ? '-' : ''}${whole}${decimals > 0 ? `.${frac}` : ''}`;
}

/** Digits after the point of seconds text, or null when it is not plain seconds. */
export function secondsDecimals(text: string): number | null {
  const m = SECONDS_TEXT.exec(text);
  return m ? (m[3] ?? '').length : null;
}

/** The calendar day of a serial (1900 or 1904 system), as yyyy-MM-dd. */
export function isoDayFromSerial(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial)) return null;
  let days = Math.floor(serial) + (date1904 ? 1462 : 0);
  // Excel's 1900 system counts a 29 February 1900 that never was: serials below 61 are one day off.
  if (!date1904 && days < 61) days += 1;
  const ms = Date.UTC(1899, 11, 30) + days * 86_400_000;
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return null;
  const y = d.getUTCFullYear();
  if (y < 1 || y > 9999) return null;
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `${pad(y, 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** A serial as date-time text, yyyy-MM-dd HH:mm:ss (seconds rounded), for a date-time cell mapped to text. */
export function isoDateTimeFromSerial(serial: number, date1904 = false): string | null {
  const day = isoDayFromSerial(serial, date1904);
  if (day === null) return null;
  let secs = Math.round((serial - Math.floor(serial)) * 86_400);
  if (secs >= 86_400) secs = 86_399;
  const pad = (n: number): string => String(n).padStart(2, '0');
  const time = `${pad(Math.floor(secs / 3600))}:${pad(Math.floor((secs % 3600) / 60))}:${pad(secs % 60)}`;
  return time === '00:00:00' ? day : `${day} ${time}`;
}
