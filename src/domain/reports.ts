import { z } from 'zod';
import { shortMonthName } from './dates';
import { MONTH_NAMES } from './sessions';

/**
 * Report inputs and the small calendar rules the stats and reports share (operations §3 Financial
 * report, §5 Financial report, ruling 17). Pure: the server and the browser both use it.
 */

export const BOTH_DATES_MESSAGE = 'Please select both from and to dates';
export const DATE_FORMAT_MESSAGE = 'Dates must be real dates written as YYYY-MM-DD';
export const DATE_ORDER_MESSAGE = 'From date must be on or before to date';
export const RANGE_TOO_LONG_MESSAGE = 'The report period cannot be longer than 10 years';
export const MAX_REPORT_YEARS = 10;

export function isIsoDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const y = Number(match[1]);
  const d = new Date(Date.UTC(y, Number(match[2]) - 1, Number(match[3])));
  return y >= 1900 && y <= 2200 && d.toISOString().slice(0, 10) === text;
}

/** `to` is at most ten years after `from`: 2016-04-01 → 2026-04-01 is allowed, a day more is not. */
export function withinYears(from: string, to: string, years: number): boolean {
  const limit = `${String(Number(from.slice(0, 4)) + years).padStart(4, '0')}${from.slice(4)}`;
  return to <= limit;
}

/** An optional `YYYY-MM-DD` query parameter; blank means absent. */
export const optionalDateQuery = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): string | undefined => {
      const text = (v ?? '').trim();
      if (!text) return undefined;
      if (!isIsoDate(text)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date written as YYYY-MM-DD` });
        return z.NEVER;
      }
      return text;
    });

/** The Financial report period: both dates, real, in order, at most ten years. */
export const dateRangeSchema = z
  .object({
    fromDate: z.string().optional(),
    toDate: z.string().optional(),
  })
  .transform((v, ctx): { fromDate: string; toDate: string } => {
    const fromDate = (v.fromDate ?? '').trim();
    const toDate = (v.toDate ?? '').trim();
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!fromDate || !toDate) return fail(BOTH_DATES_MESSAGE);
    if (!isIsoDate(fromDate) || !isIsoDate(toDate)) return fail(DATE_FORMAT_MESSAGE);
    if (fromDate > toDate) return fail(DATE_ORDER_MESSAGE);
    if (!withinYears(fromDate, toDate, MAX_REPORT_YEARS)) return fail(RANGE_TOO_LONG_MESSAGE);
    return { fromDate, toDate };
  });
export type DateRange = z.output<typeof dateRangeSchema>;

/** `2026-10` for `2026-11-22`: the month before the given India date's month. */
export function previousMonthKey(today: string): string {
  let y = Number(today.slice(0, 4));
  let m = Number(today.slice(5, 7)) - 1;
  if (m === 0) {
    m = 12;
    y -= 1;
  }
  return `${y}-${String(m).padStart(2, '0')}`;
}

/** "October 2026" for `2026-10` (ruling 17: the "<Month Year> Payments" card names the real month). */
export function monthKeyLabel(key: string): string {
  const y = key.slice(0, 4);
  const m = Number(key.slice(5, 7));
  return `${MONTH_NAMES[m - 1] ?? key} ${y}`;
}

/** First and last day of a month key: `2026-02` → 2026-02-01, 2026-02-28. */
export function monthBounds(key: string): { from: string; to: string } {
  const y = Number(key.slice(0, 4));
  const m = Number(key.slice(5, 7));
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${key}-01`, to: `${key}-${String(last).padStart(2, '0')}` };
}

/**
 * Collection progress (operations §2): revenue ÷ expected income as a whole percent, and the
 * bar's width capped at 100. Nothing expected shows 0, not a division by zero.
 */
export function collectionProgress(collectedPaise: number, expectedPaise: number): { percent: number; bar: number } {
  if (expectedPaise <= 0) return { percent: 0, bar: 0 };
  const percent = Math.floor((collectedPaise * 100) / expectedPaise);
  return { percent, bar: Math.min(100, Math.max(0, percent)) };
}

/** A day a person picks for the Day Book: one India date. */
export const dayQuerySchema = z.object({
  date: z
    .string({ error: 'Please select a date' })
    .optional()
    .transform((v, ctx): string => {
      const text = (v ?? '').trim();
      if (!text) {
        ctx.addIssue({ code: 'custom', message: 'Please select a date' });
        return z.NEVER;
      }
      if (!isIsoDate(text)) {
        ctx.addIssue({ code: 'custom', message: DATE_FORMAT_MESSAGE });
        return z.NEVER;
      }
      return text;
    }),
});

export const monthOrdinal = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1;

/**
 * Months due as a person writes them on paper (issue item 11): runs of consecutive months as
 * ranges, the year after the last month of each year, the count at the end.
 * `2026-04 … 2026-11` → "Apr–Nov 2026 (8)"; Apr, May, Jun, Sep 2026 → "Apr–Jun, Sept 2026 (4)";
 * Nov 2026 to Feb 2027 → "Nov 2026–Feb 2027 (4)". Unsorted or repeated keys are fine; none is "".
 */
export function monthRangesText(keys: readonly string[]): string {
  return monthOrdinalsText([...new Set(keys.filter((k) => /^\d{4}-(0[1-9]|1[0-2])$/.test(k)).map(monthOrdinal))].sort((a, b) => a - b));
}

/**
 * `monthRangesText` of months given as ordinals (year × 12 + month − 1), already ascending and
 * without repeats: a whole school's defaulters list writes one per student, with no keys to parse.
 */
export function monthOrdinalsText(ordinals: readonly number[]): string {
  if (ordinals.length === 0) return '';
  // runs of consecutive months, written as they close; no closures per call (it runs once per student)
  let text = '';
  let from = ordinals[0]!;
  for (let i = 0; i < ordinals.length; i++) {
    const to = ordinals[i]!;
    const next = ordinals[i + 1];
    if (next === to + 1) continue;
    const year = Math.floor(to / 12);
    const start = from === to ? '' : `${shortMonthName(from)}${Math.floor(from / 12) === year ? '' : ` ${Math.floor(from / 12)}`}–`;
    const closesYear = next === undefined || Math.floor(next / 12) !== year;
    text += `${text ? ', ' : ''}${start}${shortMonthName(to)}${closesYear ? ` ${year}` : ''}`;
    if (next !== undefined) from = next;
  }
  return `${text} (${ordinals.length})`;
}

/** When a report or download was made, as India reads it: "22 Nov 2026, 8:15 pm" (decision 0066). */
export { formatIndiaDateTime } from './dates';
