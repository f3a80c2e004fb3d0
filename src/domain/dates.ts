import { MONTH_NAMES } from './sessions';

/**
 * Dates as people in India read them, the one place that writes them for the server and the browser
 * (src/web/lib/format.ts re-exports them), so a translation changes this file.
 *
 * Spelled out here rather than through `Intl.DateTimeFormat`: the first date format a page made cost
 * its main thread 60–100 ms in Chromium (ICU building the locale's patterns), in the middle of the
 * dashboard's first render (decision 0066). The texts are exactly en-IN's as Intl writes them
 * (dates.test.ts compares every day of four years and instants around the clock): "Sept", not "Sep",
 * and "12:05 am" after midnight.
 *
 * A calendar date (`2026-11-22`) is that day in every time zone; an instant (a timestamp, a Date) is
 * written in India time (UTC+5:30, no daylight saving), whatever the browser's own zone.
 */

/** en-IN's short month names (CLDR): September is "Sept". */
const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'] as const;

/**
 * en-IN's short name of a month given as an index from January (0–11, or any count of months from a
 * year's January): what the receipts' periods and the defaulters' month ranges write, as the dates do.
 */
export const shortMonthName = (index: number): string => SHORT_MONTHS[((index % 12) + 12) % 12]!;

const INDIA_OFFSET_MS = 330 * 60_000;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

interface DateParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The parts of a calendar date, or of an instant in India time; null when it is not a real one. */
function partsOf(value: string | Date): DateParts | null {
  if (typeof value === 'string') {
    const m = CALENDAR_DATE.exec(value);
    if (m) {
      const year = Number(m[1]);
      const month = Number(m[2]);
      const day = Number(m[3]);
      const check = new Date(Date.UTC(year, month - 1, day));
      if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
      return { year, month, day, hour: 0, minute: 0 };
    }
  }
  const ms = (typeof value === 'string' ? new Date(value) : value).getTime();
  if (Number.isNaN(ms)) return null;
  const india = new Date(ms + INDIA_OFFSET_MS);
  return { year: india.getUTCFullYear(), month: india.getUTCMonth() + 1, day: india.getUTCDate(), hour: india.getUTCHours(), minute: india.getUTCMinutes() };
}

const two = (n: number) => String(n).padStart(2, '0');

/** "1 March 2027" for `2027-03-01` (or an instant's India date); null when it is no date. */
export function formatLongDateIN(value: string | Date): string | null {
  const p = partsOf(value);
  return p ? `${p.day} ${MONTH_NAMES[p.month - 1]} ${p.year}` : null;
}

/** `formatLongDateIN` for texts the server writes: the text given back when it is no date. */
export function formatDateIN(value: string | Date): string {
  return formatLongDateIN(value) ?? String(value);
}

/** "05 Nov 2026": the date of tables and cards; null when it is no date. */
export function formatShortDateIN(value: string | Date): string | null {
  const p = partsOf(value);
  return p ? `${two(p.day)} ${SHORT_MONTHS[p.month - 1]} ${p.year}` : null;
}

/** "22 Nov 2026, 8:15 pm" in India time: when a report, a payment or a sign-in happened. */
export function formatIndiaDateTime(instant: string | Date): string {
  const p = partsOf(instant);
  if (!p) return String(instant);
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  return `${p.day} ${SHORT_MONTHS[p.month - 1]} ${p.year}, ${hour12}:${two(p.minute)} ${p.hour < 12 ? 'am' : 'pm'}`;
}

/** "Nov 26" for the month key `2026-11`: a chart's month axis. */
export function formatMonthShortYear(key: string): string {
  const month = Number(key.slice(5, 7));
  return `${SHORT_MONTHS[month - 1] ?? key} ${key.slice(2, 4)}`;
}

/** "16 Nov" for `2026-11-16`: a chart's day axis. */
export function formatDayShortMonth(date: string): string {
  const p = partsOf(date);
  return p ? `${p.day} ${SHORT_MONTHS[p.month - 1]}` : date;
}
