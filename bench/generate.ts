import { eq, sql } from 'drizzle-orm';
import { CLASSES, type ClassName } from '../src/domain/classes';
import { aprilToMarchSession, indiaDate, sessionMonths } from '../src/domain/sessions';
import { academicSessions, expenses } from '../src/server/db/schema';
import { expensesFor, insertRoster, insertSessionFees, insertStructures } from '../src/server/demo/generate';
import { rowsOf } from '../src/server/lib/sql-rows';
import { createSession } from '../src/server/sessions/queries';
import { startSession } from '../src/server/sessions/start';
import { rebuildSchoolBalances } from '../src/server/balances/refresh';
import { markSchoolChanged } from '../src/server/stats/versions';
import type { BenchContext, BenchRow } from './types';

/**
 * A school of `size` students with three sessions of fees, generated set-based with the demo's
 * generator (src/server/demo/generate.ts), rolled over with the app's own rollover, VACUUMed and ANALYZEd.
 * Generated once per size per run: every scenario that needs a 60,000-student school shares it.
 */
const sessionOf = (startYear: number) => ({ name: `${startYear}-${startYear + 1}`, startDate: `${startYear}-04-01`, endDate: `${startYear + 1}-03-31` });

export interface BenchSchool {
  schoolId: string;
  token: string;
  sessions: Array<{ id: string; name: string; startDate: string; endDate: string }>;
  rows: BenchRow[];
}

export async function generateNew(ctx: BenchContext, size: number, name = `Bench Reports School ${size}`): Promise<BenchSchool> {
  const db = ctx.db;
  if (ctx.reusing) {
    const kept = await ctx.signIn(name);
    if (kept) {
      const sessions = await db
        .select({ id: academicSessions.id, name: academicSessions.name, startDate: academicSessions.startDate, endDate: academicSessions.endDate })
        .from(academicSessions)
        .where(eq(academicSessions.schoolId, kept.schoolId))
        .orderBy(academicSessions.startDate);
      return { schoolId: kept.schoolId, token: kept.token, sessions, rows: [{ name: `${name}: used as kept (BENCH_DB)` }] };
    }
  }
  const today = indiaDate(ctx.clock.now());
  const current = aprilToMarchSession(today);
  const first = Number(current.startDate.slice(0, 4)) - 2;
  const school = await ctx.createSchool(name);
  const rows: BenchRow[] = [];
  const intake = Math.max(1, Math.round(size / CLASSES.length));
  const sessions: BenchSchool['sessions'] = [];
  const started = performance.now();

  const s1 = sessionOf(first);
  const [row1] = await db.insert(academicSessions).values({ schoolId: school.schoolId, ...s1, isActive: true }).returning();
  sessions.push({ id: row1!.id, ...s1 });
  await insertStructures(db, { schoolId: school.schoolId, academicYear: s1.name, yearsAfterFirst: 0 });
  await insertRoster(db, { schoolId: school.schoolId, sessionId: row1!.id, from: 1, to: size, count: size, enrolledOn: s1.startDate });
  await insertSessionFees(db, { schoolId: school.schoolId, session: sessions[0]!, last: 11, today });

  let next = size + 1;
  for (let k = 1; k <= 2; k++) {
    const s = sessionOf(first + k);
    await insertStructures(db, { schoolId: school.schoolId, academicYear: s.name, yearsAfterFirst: k });
    const { row: rollover, value: created } = await ctx.time(`session rollover of ${size.toLocaleString('en-IN')} students (${s.name})`, () =>
      db.transaction(async (tx) => {
        const to = await createSession(tx, { schoolId: school.schoolId, ...s, isActive: false });
        // promotion is its own step; the bench starts each year early, whatever today is
        const now = ctx.clock.now();
        return (await startSession(tx, { schoolId: school.schoolId, to, today: indiaDate(now), early: true, actor: { userId: school.userId, ip: null, now } })).session;
      }),
    );
    rows.push(rollover);
    sessions.push({ id: created.id, ...s });
    // the new Nursery intake replaces the Class 12 that graduated
    await insertRoster(db, { schoolId: school.schoolId, sessionId: created.id, from: next, to: next + intake - 1, count: size, className: 'Nursery' as ClassName, enrolledOn: s.startDate });
    next += intake;
    const months = sessionMonths(s.startDate, s.endDate);
    const last = k === 2 ? months.findIndex((m) => m.key === today.slice(0, 7)) : 11;
    await insertSessionFees(db, { schoolId: school.schoolId, session: sessions[k]!, last, today });
  }
  for (const [k, s] of sessions.entries()) {
    const last = k === 2 ? sessionMonths(s.startDate, s.endDate).findIndex((m) => m.key === today.slice(0, 7)) : 11;
    const list = expensesFor(s, size, last, today);
    await db.insert(expenses).values(
      list.map((e) => ({ schoolId: school.schoolId, category: e.category as 'Other', description: e.description, amountPaise: e.amount * 100, expenseDate: e.date })),
    );
  }
  // the generator writes the ledger directly: the running balances in one whole-school pass (decision 0041)
  await rebuildSchoolBalances(db, school.schoolId);
  // a school's tables as autovacuum keeps them, not as a bulk load leaves them: the rollovers and the
  // rebuild rewrote every balance row (half the table dead), and without a visibility map no
  // index-only scan skips the heap
  await db.execute(sql`vacuum analyze`);
  await markSchoolChanged(db, school.schoolId);
  const [counts] = rowsOf<{ students: number; receipts: number; lines: number }>(
    await db.execute(sql`
      select (select count(*) from students where school_id = ${school.schoolId})::int as students,
             (select count(*) from receipts where school_id = ${school.schoolId})::int as receipts,
             (select count(*) from receipt_lines where school_id = ${school.schoolId})::int as lines`),
  );
  rows.unshift({
    name: `generate ${size.toLocaleString('en-IN')} students × 3 sessions (set-based)`,
    ms: Math.round(performance.now() - started),
    note: `${counts!.students.toLocaleString('en-IN')} students, ${counts!.receipts.toLocaleString('en-IN')} receipts, ${counts!.lines.toLocaleString('en-IN')} lines`,
  });
  return { schoolId: school.schoolId, token: school.token, sessions, rows };
}

const generated = new Map<string, Promise<BenchSchool>>();

/** The shared generated school of this size (its generation rows are returned by the first caller only). */
export function generatedSchool(ctx: BenchContext, size: number): { school: Promise<BenchSchool>; first: boolean } {
  const key = `${ctx.baseUrl}|${size}`;
  const known = generated.get(key);
  if (known) return { school: known, first: false };
  const made = generateNew(ctx, size);
  generated.set(key, made);
  return { school: made, first: true };
}
