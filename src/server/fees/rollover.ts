import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { CLASSES, nextClass, normaliseClass } from '../../domain/classes';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import type { Paise } from '../../domain/money';
import { academicSessions, auditLog, passouts, previousBalances, receiptLines, receipts, rollCounters, sessionRollovers, studentEnrollments, students } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';
import { inIds, notInIds, rowsTable } from '../lib/sql-sets';
import { outstandingFromBalances, recordCarried } from './balances';
import { lockSchoolLedger } from './locks';
import type { SessionRow } from './queries';
import { refreshBalances } from '../balances/refresh';
import { syncRollCounters } from '../students/queries';

export interface Actor {
  userId: string | null;
  ip: string | null;
  now: Date;
}

export interface RolloverSummary {
  promoted: number;
  graduated: number;
  balancesCarried: number;
  /** paise carried forward in all */
  totalCarriedPaise: number;
}

const affected = (r: { rowCount?: number | null; affectedRows?: number }) => Number(r.rowCount ?? r.affectedRows ?? 0);

const FINAL_CLASS = CLASSES[CLASSES.length - 1]!;

/** (from, to) for every class that has a next one, as a VALUES list. */
const classSteps = () =>
  sql.join(
    CLASSES.filter((c) => nextClass(c)).map((c) => sql`(${c}::text, ${nextClass(c)!}::text)`),
    sql`, `,
  );

/**
 * Rolls a school into a new session (ruling 9) inside the caller's transaction: every active
 * student of `from` moves one class up into `to` with a new roll number per class and section;
 * Class 12 becomes passouts with the old session's end year as graduation year; each student's
 * outstanding of `from` (the whole session, ruling 6) is carried as a previous balance. All or
 * nothing, and a fixed handful of statements whatever the number of students.
 */
export async function rollOverSchool(
  tx: Db,
  { schoolId, from, to, throughMonth, actor }: { schoolId: string; from: SessionRow; to: SessionRow; throughMonth: string; actor: Actor },
): Promise<RolloverSummary> {
  await lockSchoolLedger(tx, { schoolId });
  const people = await studentsOf(tx, { schoolId, from });
  const summary: RolloverSummary = { promoted: 0, graduated: 0, balancesCarried: 0, totalCarriedPaise: 0 };

  if (people.length > 0) {
    const carried = await outstandingFromBalances(tx, { schoolId, session: from, people, throughMonth });
    const graduates = new Set(people.filter((p) => p.className === FINAL_CLASS).map((p) => p.id));
    await recordCarried(tx, { schoolId, session: from, rows: carried.filter((c) => !graduates.has(c.studentId)), throughMonth, reason: 'rollover', at: actor.now });
    await recordCarried(tx, { schoolId, session: from, rows: carried.filter((c) => graduates.has(c.studentId)), throughMonth, reason: 'graduation', at: actor.now });
    summary.balancesCarried = carried.filter((c) => c.monthly + c.yearly > 0).length;
    summary.totalCarriedPaise = carried.reduce((s, c) => s + c.monthly + c.yearly, 0);
    const today = indiaDate(actor.now);
    const graduationYear = Number(from.endDate.slice(0, 4));

    // Class 12 leaves: passouts, with the balance just carried
    const graduated = await tx.execute(sql`
      insert into ${passouts} (school_id, student_id, name, roll_number, last_class, section, session_id, graduation_year, passout_date, kind, reason)
      select s.school_id, s.id, s.name, s.roll_number, s.class_name, s.section, ${from.id}::uuid, ${graduationYear}, ${today}::date, 'graduated',
             ${`Graduated from ${FINAL_CLASS} (${from.name})`}
      from ${students} s
      where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null) and s.class_name = ${FINAL_CLASS}
      on conflict (school_id, student_id) do nothing`);
    summary.graduated = affected(graduated);

    // everyone else: an enrollment one class up, numbered after anyone already in that class and section
    await tx.execute(sql`
      with moving as (
        select s.id, s.section, s.roll_number, s.name, coalesce(step.to_class, s.class_name) as new_class
        from ${students} s
        left join (values ${classSteps()}) as step(from_class, to_class) on step.from_class = s.class_name
        where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)
          and s.class_name <> ${FINAL_CLASS}
      ), taken as (
        select class_name, section, max(roll_number) as max_roll from ${studentEnrollments}
        where school_id = ${schoolId} and session_id = ${to.id} group by class_name, section
      ), counted as (
        select class_name, section, last_roll from ${rollCounters} where school_id = ${schoolId} and session_id = ${to.id}
      )
      insert into ${studentEnrollments} (school_id, student_id, session_id, class_name, section, roll_number, created_at)
      select ${schoolId}::uuid, m.id, ${to.id}::uuid, m.new_class, m.section,
             greatest(coalesce(t.max_roll, 0), coalesce(c.last_roll, 0))
               + row_number() over (partition by m.new_class, m.section order by m.roll_number, m.name, m.id),
             ${actor.now.toISOString()}::timestamptz
      from moving m
      left join taken t on t.class_name = m.new_class and t.section = m.section
      left join counted c on c.class_name = m.new_class and c.section = m.section
      on conflict (school_id, student_id, session_id) do nothing`);

    await syncRollCounters(tx, { schoolId, sessionId: to.id });

    // Where everyone landed and what was carried, read back as plain lists. The audit rows and the
    // students' update are built from these in memory rather than by joining tables filled moments
    // ago in this transaction: their statistics still say "empty", and the planner then chose nested
    // loops that scanned a whole session per student (5 s for 5,000 students, minutes for 60,000).
    const placed = new Map(
      rowsOf<{ student_id: string; class_name: string; section: string; roll_number: number }>(
        await tx.execute(sql`
          select student_id, class_name, section, roll_number from ${studentEnrollments}
          where school_id = ${schoolId} and session_id = ${to.id}`),
      ).map((e) => [e.student_id, e]),
    );
    const kept = new Map(
      rowsOf<{ student_id: string; academic_year: string; monthly: string | number; yearly: string | number }>(
        await tx.execute(sql`
          select student_id, academic_year, monthly_outstanding_paise as monthly, yearly_outstanding_paise as yearly
          from ${previousBalances} where school_id = ${schoolId} and session_id = ${from.id}`),
      ).map((b) => [b.student_id, b]),
    );
    const moves = people.map((p) => {
      const leaving = p.className === FINAL_CLASS;
      const e = leaving ? undefined : placed.get(p.id);
      const b = kept.get(p.id);
      return {
        id: p.id,
        leaving,
        className: e?.class_name ?? p.className,
        section: e?.section ?? p.section,
        rollNumber: e ? Number(e.roll_number) : p.rollNumber,
        before: { className: p.className, section: p.section, rollNumber: p.rollNumber, sessionId: p.sessionId, status: 'active' },
        after: {
          className: e?.class_name ?? p.className,
          section: e?.section ?? p.section,
          rollNumber: e ? Number(e.roll_number) : p.rollNumber,
          sessionId: leaving ? p.sessionId : to.id,
          status: leaving ? 'passout' : 'active',
          previousBalance: {
            academicYear: b?.academic_year ?? null,
            monthlyOutstandingPaise: b ? Number(b.monthly) : null,
            yearlyOutstandingPaise: b ? Number(b.yearly) : null,
          },
        },
      };
    });

    // who moved where, per student, before the students' rows change
    const audit = rowsTable(
      [['id', 'text'], ['action', 'text'], ['before', 'jsonb'], ['after', 'jsonb']],
      moves.map((m) => [m.id, m.leaving ? 'student.graduate' : 'student.rollover', m.before, m.after]),
    );
    await tx.execute(sql`
      insert into ${auditLog} (school_id, user_id, action, entity, entity_id, before, after, ip, created_at)
      select ${schoolId}::uuid, ${actor.userId}::uuid, x.action, 'student', x.id, x.before, x.after, ${actor.ip}, ${actor.now.toISOString()}::timestamptz
      from ${audit}`);

    await tx.execute(sql`
      update ${students} s set status = 'passout', updated_at = ${actor.now.toISOString()}::timestamptz
      where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)
        and s.class_name = ${FINAL_CLASS}`);
    const promotedRows = rowsTable(
      [['id', 'uuid'], ['class_name', 'text'], ['section', 'text'], ['roll_number', 'int']],
      moves.filter((m) => !m.leaving && placed.has(m.id)).map((m) => [m.id, m.className, m.section, m.rollNumber]),
    );
    const promoted = await tx.execute(sql`
      update ${students} s
      set class_name = x.class_name, section = x.section, roll_number = x.roll_number, session_id = ${to.id}::uuid,
          updated_at = ${actor.now.toISOString()}::timestamptz
      from ${promotedRows}
      where s.id = x.id and s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)`);
    summary.promoted = affected(promoted);
    // every moved student's balances, old session closed and new one open, in one set-based pass
    await refreshBalances(tx, { schoolId, studentIds: people.map((p) => p.id) });
  }

  await tx
    .update(academicSessions)
    .set({ isPromotionCompleted: true })
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.id, to.id)));
  await tx.insert(sessionRollovers).values({
    schoolId,
    fromSessionId: from.id,
    toSessionId: to.id,
    throughMonth,
    moved: people.map((p) => ({ id: p.id, className: p.className, section: p.section, rollNumber: p.rollNumber, sessionId: p.sessionId, graduated: p.className === FINAL_CLASS })),
    summary,
    startedAt: actor.now,
    startedBy: actor.userId,
  });
  await tx.insert(auditLog).values({
    schoolId,
    userId: actor.userId,
    action: 'academic_session.rollover',
    entity: 'academic_session',
    entityId: to.id,
    before: { sessionId: from.id, sessionName: from.name, activeStudents: people.length },
    after: { sessionId: to.id, sessionName: to.name, ...summary },
    ip: actor.ip,
    createdAt: actor.now,
  });
  return summary;
}

/** The active students of `from` (and any never placed in a session), as a start moves them. */
function studentsOf(db: Db, { schoolId, from }: { schoolId: string; from: SessionRow }) {
  return db
    .select({
      id: students.id,
      name: students.name,
      className: students.className,
      section: students.section,
      rollNumber: students.rollNumber,
      sessionId: students.sessionId,
      monthlyBusFeePaise: students.monthlyBusFeePaise,
      feesFromMonth: students.feesFromMonth,
    })
    .from(students)
    .where(and(eq(students.schoolId, schoolId), eq(students.status, 'active'), or(eq(students.sessionId, from.id), isNull(students.sessionId))))
    .orderBy(students.className, students.section, students.rollNumber, students.name);
}

export interface RolloverPreviewRow {
  id: string;
  name: string;
  fromClass: string;
  section: string;
  rollNumber: number;
  /** null: passes out (Class 12) */
  toClass: string | null;
  carriedMonthly: Paise;
  carriedYearly: Paise;
}

/** Who a start would move where, who passes out, and what each carries: read only, nothing moves. */
export async function previewRollover(
  db: Db,
  { schoolId, from, throughMonth }: { schoolId: string; from: SessionRow; throughMonth: string },
): Promise<RolloverPreviewRow[]> {
  const people = await studentsOf(db, { schoolId, from });
  const carried = new Map((await outstandingFromBalances(db, { schoolId, session: from, people, throughMonth })).map((c) => [c.studentId, c]));
  return people.map((p) => ({
    id: p.id,
    name: p.name,
    fromClass: p.className,
    section: p.section,
    rollNumber: p.rollNumber,
    toClass: p.className === FINAL_CLASS ? null : ((normaliseClass(p.className) && nextClass(normaliseClass(p.className)!)) ?? p.className),
    carriedMonthly: carried.get(p.id)?.monthly ?? (0 as Paise),
    carriedYearly: carried.get(p.id)?.yearly ?? (0 as Paise),
  }));
}

export type RolloverRow = typeof sessionRollovers.$inferSelect;

/** The start that moved the school into `to` and is not undone, if any. */
export async function findRollover(db: Db, { schoolId, toSessionId }: { schoolId: string; toSessionId: string }): Promise<RolloverRow | undefined> {
  const [row] = await db
    .select()
    .from(sessionRollovers)
    .where(and(eq(sessionRollovers.schoolId, schoolId), eq(sessionRollovers.toSessionId, toSessionId), isNull(sessionRollovers.undoneAt)))
    .orderBy(desc(sessionRollovers.startedAt))
    .limit(1);
  return row;
}

/** Why a start can no longer be undone, or null: a receipt in the new session, a student who left from it, or one admitted into it. */
export async function undoBlocker(db: Db, { schoolId, rollover, toName }: { schoolId: string; rollover: RolloverRow; toName: string }): Promise<string | null> {
  // a receipt numbered in the new session, or paying its fees while numbered in the old one
  const [receipt] = await db
    .select({ number: receipts.receiptNumber })
    .from(receipts)
    .where(
      and(
        eq(receipts.schoolId, schoolId),
        or(
          eq(receipts.sessionId, rollover.toSessionId),
          sql`exists (select 1 from ${receiptLines} l where l.school_id = ${schoolId} and l.receipt_id = ${receipts.id}
                and (l.session_id = ${rollover.toSessionId}::uuid
                     -- a payment against a balance this start carried
                     or (l.head = 'previous_balance' and l.session_id = ${rollover.fromSessionId}::uuid and l.created_at >= ${rollover.startedAt.toISOString()}::timestamptz)))`,
        ),
      ),
    )
    .orderBy(receipts.createdAt)
    .limit(1);
  if (receipt) return `Receipt ${receipt.number} was saved after ${toName} started: the start can no longer be undone.`;
  // a student who left from the new session: the undo would make them active again beside their
  // passout row and the balance their leaving carried (owed twice, in both sessions)
  const [left] = await db
    .select({ name: passouts.name, kind: passouts.kind })
    .from(passouts)
    .where(and(eq(passouts.schoolId, schoolId), eq(passouts.sessionId, rollover.toSessionId)))
    .orderBy(passouts.createdAt)
    .limit(1);
  if (left) return `${left.name} ${left.kind === 'discharged' ? 'was discharged' : 'passed out'} after ${toName} started: the start can no longer be undone.`;
  const moved = (rollover.moved as MovedStudent[]).map((m) => m.id);
  const result = await db.execute(sql`
    select count(*)::int as n from ${studentEnrollments}
    where school_id = ${schoolId} and session_id = ${rollover.toSessionId}::uuid
      and ${notInIds(sql`student_id`, moved)}`);
  const admitted = Number((rowsOf<{ n: number }>(result)[0] ?? { n: 0 }).n);
  if (admitted > 0) {
    return `${admitted} ${admitted === 1 ? 'student was' : 'students were'} admitted into ${toName} after it started: the start can no longer be undone.`;
  }
  return null;
}

interface MovedStudent {
  id: string;
  className: string;
  section: string;
  rollNumber: number;
  sessionId: string | null;
  graduated: boolean;
}

/**
 * Puts every student back where the start found them, in one transaction: their class, section,
 * roll number and session; graduates back from the passouts; the balances the start carried and the
 * new session's enrollments removed. The caller has checked `undoBlocker` under the same lock.
 */
export async function undoRollover(
  tx: Db,
  { schoolId, rollover, actor }: { schoolId: string; rollover: RolloverRow; actor: Actor },
): Promise<{ restored: number }> {
  await lockSchoolLedger(tx, { schoolId });
  const moved = rollover.moved as MovedStudent[];
  const ids = moved.map((m) => m.id);
  const graduated = moved.filter((m) => m.graduated).map((m) => m.id);
  // anyone placed in the new session loses that row, not only the students the start moved
  const placedInNew = rowsOf<{ student_id: string }>(
    await tx.execute(sql`select student_id from student_session_balances where school_id = ${schoolId} and session_id = ${rollover.toSessionId}::uuid`),
  ).map((r) => r.student_id);
  if (moved.length > 0) {
    await tx.execute(sql`
      update ${students} s
      set class_name = m.class_name, section = m.section, roll_number = m.roll_number, session_id = m.session_id,
          status = 'active', updated_at = ${actor.now.toISOString()}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(moved.map((m) => ({ id: m.id, class_name: m.className, section: m.section, roll_number: m.rollNumber, session_id: m.sessionId })))}::jsonb)
        as m(id uuid, class_name text, section text, roll_number int, session_id uuid)
      where s.school_id = ${schoolId} and s.id = m.id`);
    await tx.execute(sql`
      delete from ${passouts} where school_id = ${schoolId} and kind = 'graduated'
        and session_id = ${rollover.fromSessionId}::uuid and ${inIds(sql`student_id`, graduated)}`);
    await tx.execute(sql`
      delete from ${previousBalances} where school_id = ${schoolId} and session_id = ${rollover.fromSessionId}::uuid
        and reason in ('rollover', 'graduation') and ${inIds(sql`student_id`, ids)}`);
  }
  await tx.execute(sql`delete from ${studentEnrollments} where school_id = ${schoolId} and session_id = ${rollover.toSessionId}::uuid`);
  await tx.execute(sql`delete from ${rollCounters} where school_id = ${schoolId} and session_id = ${rollover.toSessionId}::uuid`);
  await tx
    .update(academicSessions)
    .set({ isPromotionCompleted: false })
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.id, rollover.toSessionId)));
  await tx
    .update(sessionRollovers)
    .set({ undoneAt: actor.now, undoneBy: actor.userId })
    .where(and(eq(sessionRollovers.schoolId, schoolId), eq(sessionRollovers.id, rollover.id)));
  await refreshBalances(tx, { schoolId, studentIds: [...moved.map((m) => m.id), ...placedInNew] });
  await tx.insert(auditLog).values({
    schoolId,
    userId: actor.userId,
    action: 'academic_session.rollover_undo',
    entity: 'academic_session',
    entityId: rollover.toSessionId,
    before: { sessionId: rollover.toSessionId, summary: rollover.summary },
    after: { sessionId: rollover.fromSessionId, restored: moved.length },
    ip: actor.ip,
    createdAt: actor.now,
  });
  return { restored: moved.length };
}
