import { z } from 'zod';

/** Academic sessions and years (ruling 8, operations §5). Dates are ISO `YYYY-MM-DD` strings. */

export const MONTH_NAMES = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;
export type MonthName = (typeof MONTH_NAMES)[number];

export interface SessionMonth {
  month: MonthName;
  year: number;
  /** 1-12 */
  monthNumber: number;
  /** `2025-04` */
  key: string;
}

function parseIsoDate(value: string): { y: number; m: number; d: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return { y, m, d };
}

export const isoDate = z
  .string()
  .trim()
  .refine((v) => parseIsoDate(v) !== null, 'Enter a valid date (YYYY-MM-DD)');

/** The calendar months a session covers, first to last, e.g. April 2025 … March 2026. */
export function sessionMonths(startDate: string, endDate: string): SessionMonth[] {
  const s = parseIsoDate(startDate);
  const e = parseIsoDate(endDate);
  if (!s || !e) return [];
  const out: SessionMonth[] = [];
  let y = s.y;
  let m = s.m;
  while (y < e.y || (y === e.y && m <= e.m)) {
    out.push({ month: MONTH_NAMES[m - 1]!, year: y, monthNumber: m, key: `${y}-${String(m).padStart(2, '0')}` });
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
    if (out.length > 120) break;
  }
  return out;
}

/**
 * Session length in months, counting the end date's day (operations §5): 2025-04-01 to
 * 2026-03-31 is 12 months; 2025-04-01 to 2026-03-30 is 11.
 */
export function sessionDurationMonths(startDate: string, endDate: string): number {
  const s = parseIsoDate(startDate);
  const e = parseIsoDate(endDate);
  if (!s || !e) return 0;
  // the day after the end date, so an end on the last day completes that month
  const after = new Date(Date.UTC(e.y, e.m - 1, e.d + 1));
  let months = (after.getUTCFullYear() - s.y) * 12 + (after.getUTCMonth() + 1 - s.m);
  if (after.getUTCDate() < s.d) months -= 1;
  return months;
}

export const SESSION_MIN_MONTHS = 12;

export const SESSION_NAME_MESSAGE = 'Session name must be an academic year such as 2025-2026 (the second year one after the first)';
export const SESSION_OVERLAP_START = 'These dates overlap the academic session';

/** "These dates overlap the academic session 2026-2027 (2026-04-01 to 2027-03-31)…": names the other session. */
export function sessionOverlapMessage(other: { name: string; startDate: string; endDate: string }): string {
  return `${SESSION_OVERLAP_START} ${other.name} (${other.startDate} to ${other.endDate}). Sessions of a school may not overlap; adjust the dates.`;
}

/**
 * A session's name (ruling 8): `2025-2026`, also typed as `2025-26`, `2025/26` or `2025–2026`, the
 * second year one after the first. Null for anything else (a lone `2025`, `Session A`).
 */
export function sessionNameOf(input: string): string | null {
  const text = input.trim();
  if (!/^\d{4}\s*[-–—/]\s*(\d{4}|\d{2})$/.test(text)) return null;
  return normaliseAcademicYear(text);
}

export const createSessionSchema = z
  .object({
    sessionName: z
      .string()
      .trim()
      .min(1, 'Please fill in all required fields')
      .max(50, 'Session name is too long')
      .refine((v) => sessionNameOf(v) !== null, SESSION_NAME_MESSAGE),
    startDate: z.string().trim().min(1, 'Please fill in all required fields'),
    endDate: z.string().trim().min(1, 'Please fill in all required fields'),
    isActive: z.boolean().optional().default(false),
  })
  .superRefine((v, ctx) => {
    if (!parseIsoDate(v.startDate) || !parseIsoDate(v.endDate)) {
      ctx.addIssue({ code: 'custom', message: 'Enter valid start and end dates', path: ['startDate'] });
      return;
    }
    if (v.endDate <= v.startDate) {
      ctx.addIssue({ code: 'custom', message: 'End date must be after start date.', path: ['endDate'] });
      return;
    }
    const months = sessionDurationMonths(v.startDate, v.endDate);
    if (months < SESSION_MIN_MONTHS) {
      ctx.addIssue({
        code: 'custom',
        message: `Academic session must be at least 12 months long. Current duration: ${months} months. Please adjust the dates.`,
        path: ['endDate'],
      });
    }
  });

/**
 * Academic years in the spellings the documents show, as `2025-2026`: `2025-2026`, `2025-26`,
 * `2025/26`, `2025–2026`. A lone `2025` means the session starting that year.
 */
export function normaliseAcademicYear(input: string | null | undefined): string | null {
  const text = (input ?? '').trim().replace(/[–—/]/g, '-').replace(/\s+/g, '');
  let match = /^(\d{4})-(\d{4})$/.exec(text);
  if (match) return Number(match[2]) === Number(match[1]) + 1 ? `${match[1]}-${match[2]}` : null;
  match = /^(\d{4})-(\d{2})$/.exec(text);
  if (match) {
    const start = Number(match[1]);
    return (start + 1) % 100 === Number(match[2]) ? `${start}-${start + 1}` : null;
  }
  match = /^(\d{4})$/.exec(text);
  if (match) return `${match[1]}-${Number(match[1]) + 1}`;
  return null;
}

/** `2025-26`, the short form used in receipt numbers. */
export function shortAcademicYear(year: string): string {
  const [a, b] = year.split('-');
  return `${a}-${(b ?? '').slice(-2)}`;
}

/** The calendar date in India (UTC+5:30, no daylight saving) at an instant, as `YYYY-MM-DD`. */
export function indiaDate(now: Date): string {
  return new Date(now.getTime() + 330 * 60_000).toISOString().slice(0, 10);
}

/**
 * The April–March session containing a date (ruling 8): 2026-11-22 → `2026-2027`,
 * 2026-04-01 to 2027-03-31; 2027-02-10 → `2026-2027` too.
 */
export function aprilToMarchSession(today: string): { name: string; startDate: string; endDate: string } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  const start = month >= 4 ? year : year - 1;
  return { name: `${start}-${start + 1}`, startDate: `${start}-04-01`, endDate: `${start + 1}-03-31` };
}

/**
 * Starting the next session (promotion) is its own step, allowed from the first day of the running
 * session's last month; earlier only with an explicit override.
 */
export function promotionOpensOn(runningEndDate: string): string {
  return `${runningEndDate.slice(0, 7)}-01`;
}

/**
 * The last month whose dues a start carries forward: the months already due (ruling 6), never past
 * the running session's last month. Started in March, that is the whole session.
 */
export function carryThroughMonth(runningEndDate: string, today: string): string {
  const last = runningEndDate.slice(0, 7);
  const now = today.slice(0, 7);
  return now < last ? now : last;
}
