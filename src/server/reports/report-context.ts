import { sql } from 'drizzle-orm';
import { paise, toRupeeString } from '../../domain/money';
import type { Db } from '../db/client';
import { badRequest } from '../lib/errors';
import { rowsOf } from '../lib/sql-rows';
import { findActiveSession, findSessionByYear, type SessionRow } from '../fees/queries';

/** What every report builder is given. */
export interface ReportContext {
  db: Db;
  schoolId: string;
  schoolName: string;
  /** India date */
  today: string;
  generatedAt: string;
}

export const NO_SESSION_MESSAGE = 'Create an academic session under Session Management first.';

/** The session a report asks for (any spelling of its year, or its id); the active one by default. */
export async function reportSession(db: Db, { schoolId, academicYear }: { schoolId: string; academicYear?: string | undefined }): Promise<SessionRow> {
  const text = academicYear?.trim();
  if (text) {
    const row = await findSessionByYear(db, { schoolId, year: text });
    if (!row) throw badRequest(`Academic session ${text.slice(0, 20)} was not found`);
    return row;
  }
  const active = await findActiveSession(db, { schoolId });
  if (!active) throw badRequest(NO_SESSION_MESSAGE);
  return active;
}

/** The session whose months include `monthKey`, the active one first. */
export async function sessionContaining(db: Db, { schoolId, monthKey }: { schoolId: string; monthKey: string }): Promise<{ id: string; name: string } | null> {
  const [row] = rowsOf<{ id: string; name: string }>(
    await db.execute(sql`
      select id, name from academic_sessions
      where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${monthKey} and to_char(end_date, 'YYYY-MM') >= ${monthKey}
      order by is_active desc, start_date desc limit 1`),
  );
  return row ?? null;
}

/** The till-date horizon of a session: this month, but never past its last month. */
export function horizonOf(session: { endDate: string }, today: string): string {
  const current = today.slice(0, 7);
  const last = session.endDate.slice(0, 7);
  return current < last ? current : last;
}

export const money = (v: unknown) => toRupeeString(paise(v === null || v === undefined ? 0 : Number(v)));
export const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** (part ÷ whole) as a percent with one decimal, "0.0" when nothing is expected. */
export function percentText(part: number, whole: number): string {
  if (whole <= 0) return '0.0';
  const tenths = Math.floor((part * 1000) / whole);
  return `${Math.floor(tenths / 10)}.${tenths % 10}`;
}
