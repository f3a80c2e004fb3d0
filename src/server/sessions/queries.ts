import { and, desc, eq, gte, lte, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { aprilToMarchSession, normaliseAcademicYear, sessionOverlapMessage } from '../../domain/sessions';
import type { Db } from '../db/client';
import { academicSessions, studentEnrollments } from '../db/schema';
import { conflict } from '../lib/errors';
import { lockFor } from '../lib/locks';
import { isUniqueViolation } from '../lib/pg-errors';
import { refreshUnplacedBalances } from '../balances/refresh';

export type SessionRow = typeof academicSessions.$inferSelect;

export const sessionDto = z.object({
  id: z.string(),
  sessionName: z.string(),
  /** the same as sessionName: the documents show both names for it */
  academicYear: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  isActive: z.boolean(),
  isPromotionCompleted: z.boolean(),
  createdAt: z.string(),
});
export type SessionDto = z.infer<typeof sessionDto>;

export function toSessionDto(row: SessionRow): SessionDto {
  return {
    id: row.id,
    sessionName: row.name,
    academicYear: row.name,
    startDate: row.startDate,
    endDate: row.endDate,
    isActive: row.isActive,
    isPromotionCompleted: row.isPromotionCompleted,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Serialises changes to which session is active, so "exactly one active" never races. */
export const lockSessions = (tx: Db, schoolId: string) => lockFor(tx, `academic-sessions:${schoolId}`);

/** `2025-26` and `2025-2026` name the same session; names that are not years are kept as typed. */
export function canonicalSessionName(name: string): string {
  return normaliseAcademicYear(name) ?? name.trim();
}

export function duplicateSessionMessage(name: string): string {
  return `An academic session named "${name}" already exists.`;
}

export function listSessions(db: Db, { schoolId }: { schoolId: string }): Promise<SessionRow[]> {
  return db
    .select()
    .from(academicSessions)
    .where(eq(academicSessions.schoolId, schoolId))
    .orderBy(desc(academicSessions.startDate), desc(academicSessions.createdAt));
}

export async function findSession(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.id, id)))
    .limit(1);
  return row;
}

export async function findActiveSession(db: Db, { schoolId }: { schoolId: string }): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.isActive, true)))
    .limit(1);
  return row;
}

export interface NewSession {
  schoolId: string;
  name: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
}

/**
 * Creates a session inside the caller's transaction; an active one first deactivates the others
 * (exactly one active per school). Creating a session never moves a student: next year's session
 * and fee structures can be prepared in advance, and promotion is its own step (`startSession`).
 * So a session later than the running one cannot be made active here. Its dates may not overlap
 * another session of the school (409 naming it), checked under the school's session lock.
 */
export async function createSession(tx: Db, input: NewSession): Promise<SessionRow> {
  const name = canonicalSessionName(input.name);
  await lockSessions(tx, input.schoolId);
  const [existing] = await tx
    .select({ id: academicSessions.id })
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, input.schoolId), eq(academicSessions.name, name)))
    .limit(1);
  if (existing) throw conflict(duplicateSessionMessage(name));
  const [overlapping] = await tx
    .select({ name: academicSessions.name, startDate: academicSessions.startDate, endDate: academicSessions.endDate })
    .from(academicSessions)
    .where(
      and(
        eq(academicSessions.schoolId, input.schoolId),
        lte(academicSessions.startDate, input.endDate),
        gte(academicSessions.endDate, input.startDate),
      ),
    )
    .orderBy(academicSessions.startDate)
    .limit(1);
  if (overlapping) throw conflict(sessionOverlapMessage(overlapping));
  const previous = await findActiveSession(tx, { schoolId: input.schoolId });
  if (input.isActive && previous && input.startDate > previous.startDate) throw conflict(startLaterMessage(name, previous.name));
  if (input.isActive) {
    await tx
      .update(academicSessions)
      .set({ isActive: false })
      .where(and(eq(academicSessions.schoolId, input.schoolId), eq(academicSessions.isActive, true)));
  }
  let row: SessionRow;
  try {
    [row] = (await tx
      .insert(academicSessions)
      .values({ schoolId: input.schoolId, name, startDate: input.startDate, endDate: input.endDate, isActive: input.isActive })
      .returning()) as [SessionRow];
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(duplicateSessionMessage(name));
    throw error;
  }
  if (input.isActive) await refreshUnplacedBalances(tx, input.schoolId);
  return row;
}

/** A later session becomes the running one only by starting it: that is when students move. */
export function startLaterMessage(name: string, running: string): string {
  return `${name} starts after ${running}: students move into it when you start it (Start ${name} in Session Management), not by making it active.`;
}

/**
 * Makes one session the active one and every other session of the school inactive. A session
 * later than the active one must be started instead, unless its start already happened.
 */
export async function activateSession(
  tx: Db,
  { schoolId, id, starting = false }: { schoolId: string; id: string; starting?: boolean },
): Promise<SessionRow | undefined> {
  await lockSessions(tx, schoolId);
  const target = await findSession(tx, { schoolId, id });
  if (!target) return undefined;
  const current = await findActiveSession(tx, { schoolId });
  if (!starting && current && target.startDate > current.startDate && !target.isPromotionCompleted) {
    // refused only when it would leave the students behind: the running session has students and
    // the later one none (a later session they already sat in may be made active again)
    const placedIn = async (sessionId: string) =>
      (
        await tx
          .select({ id: studentEnrollments.id })
          .from(studentEnrollments)
          .where(and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.sessionId, sessionId)))
          .limit(1)
      ).length > 0;
    if ((await placedIn(current.id)) && !(await placedIn(id))) throw conflict(startLaterMessage(target.name, current.name));
  }
  // two statements: a unique index is checked row by row, so the old one must go first
  await tx
    .update(academicSessions)
    .set({ isActive: false })
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.isActive, true), ne(academicSessions.id, id)));
  const [row] = await tx
    .update(academicSessions)
    .set({ isActive: true })
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.id, id)))
    .returning();
  if (row) await refreshUnplacedBalances(tx, schoolId);
  return row;
}

/**
 * Makes sure the school has an active session: the April–March session containing `today`
 * (`YYYY-MM-DD`, India's date), created when missing, activated when no other session is active.
 * Every new school gets one at registration; adding a student calls it too. A session of the
 * school that already overlaps that April–March range wins over creating one (sessions never
 * overlap): the one holding today, else the latest that began before it, else the earliest.
 */
export async function createDefaultSession(db: Db, { schoolId, today }: { schoolId: string; today: string }): Promise<SessionRow> {
  const active = await findActiveSession(db, { schoolId });
  if (active) return active;
  await lockSessions(db, schoolId);
  const range = aprilToMarchSession(today);
  const overlapping = await db
    .select({ id: academicSessions.id, startDate: academicSessions.startDate, endDate: academicSessions.endDate })
    .from(academicSessions)
    .where(and(eq(academicSessions.schoolId, schoolId), lte(academicSessions.startDate, range.endDate), gte(academicSessions.endDate, range.startDate)))
    .orderBy(academicSessions.startDate);
  const chosen =
    overlapping.find((s) => s.startDate <= today && today <= s.endDate) ??
    overlapping.filter((s) => s.startDate <= today).at(-1) ??
    overlapping[0];
  let targetId = chosen?.id;
  if (!targetId) {
    const [created] = await db
      .insert(academicSessions)
      .values({ schoolId, name: range.name, startDate: range.startDate, endDate: range.endDate, isActive: false })
      .onConflictDoNothing()
      .returning({ id: academicSessions.id });
    // a session of that name outside the range (an odd one made by hand): activate it rather than fail
    if (created) targetId = created.id;
    else {
      const [named] = await db
        .select({ id: academicSessions.id })
        .from(academicSessions)
        .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.name, range.name)))
        .limit(1);
      targetId = named?.id;
    }
  }
  if (targetId) {
    await db
      .update(academicSessions)
      .set({ isActive: true })
      .where(
        and(
          eq(academicSessions.schoolId, schoolId),
          eq(academicSessions.id, targetId),
          sql`not exists (select 1 from ${academicSessions} a where a.school_id = ${schoolId} and a.is_active)`,
        ),
      );
  }
  const row = await findActiveSession(db, { schoolId });
  if (!row) throw new Error('no active academic session after creating the default one');
  await refreshUnplacedBalances(db, schoolId);
  return row;
}
