import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { CLASSES, nextClass } from '../../domain/classes';
import { indiaDate } from '../../domain/sessions';
import type { Db } from '../db/client';
import { academicSessions, auditLog, passouts, previousBalances, rollCounters, studentEnrollments, students } from '../db/schema';
import { outstandingOfMany, recordCarried } from './balances';
import { lockSchoolLedger } from './locks';
import type { SessionRow } from './queries';

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
  { schoolId, from, to, actor }: { schoolId: string; from: SessionRow; to: SessionRow; actor: Actor },
): Promise<RolloverSummary> {
  await lockSchoolLedger(tx, { schoolId });
  const inFrom = and(
    eq(students.schoolId, schoolId),
    eq(students.status, 'active'),
    or(eq(students.sessionId, from.id), isNull(students.sessionId)),
  );
  const people = await tx
    .select({ id: students.id, className: students.className, monthlyBusFeePaise: students.monthlyBusFeePaise })
    .from(students)
    .where(inFrom);
  const summary: RolloverSummary = { promoted: 0, graduated: 0, balancesCarried: 0, totalCarriedPaise: 0 };

  if (people.length > 0) {
    const throughMonth = from.endDate.slice(0, 7);
    const carried = await outstandingOfMany(tx, { schoolId, session: from, people, throughMonth });
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

    await tx.execute(sql`
      insert into ${rollCounters} (school_id, session_id, class_name, section, last_roll)
      select school_id, session_id, class_name, section, max(roll_number) from ${studentEnrollments}
      where school_id = ${schoolId} and session_id = ${to.id}
      group by school_id, session_id, class_name, section
      on conflict (school_id, session_id, class_name, section) do update set last_roll = greatest(${rollCounters}.last_roll, excluded.last_roll)`);

    // who moved where, per student, before the students' rows change
    await tx.execute(sql`
      insert into ${auditLog} (school_id, user_id, action, entity, entity_id, before, after, ip, created_at)
      select s.school_id, ${actor.userId}::uuid,
             case when s.class_name = ${FINAL_CLASS} then 'student.graduate' else 'student.rollover' end,
             'student', s.id::text,
             jsonb_build_object('className', s.class_name, 'section', s.section, 'rollNumber', s.roll_number, 'sessionId', s.session_id, 'status', s.status),
             jsonb_build_object(
               'className', coalesce(e.class_name, s.class_name), 'section', coalesce(e.section, s.section),
               'rollNumber', coalesce(e.roll_number, s.roll_number),
               'sessionId', case when s.class_name = ${FINAL_CLASS} then s.session_id else ${to.id}::uuid end,
               'status', case when s.class_name = ${FINAL_CLASS} then 'passout' else 'active' end,
               'previousBalance', jsonb_build_object('academicYear', b.academic_year,
                 'monthlyOutstandingPaise', b.monthly_outstanding_paise, 'yearlyOutstandingPaise', b.yearly_outstanding_paise)),
             ${actor.ip}, ${actor.now.toISOString()}::timestamptz
      from ${students} s
      left join ${studentEnrollments} e on e.school_id = s.school_id and e.student_id = s.id and e.session_id = ${to.id}
      left join ${previousBalances} b on b.school_id = s.school_id and b.student_id = s.id and b.session_id = ${from.id}
      where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)`);

    await tx.execute(sql`
      update ${students} s set status = 'passout', updated_at = ${actor.now.toISOString()}::timestamptz
      where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)
        and s.class_name = ${FINAL_CLASS}`);
    const promoted = await tx.execute(sql`
      update ${students} s
      set class_name = e.class_name, section = e.section, roll_number = e.roll_number, session_id = e.session_id,
          updated_at = ${actor.now.toISOString()}::timestamptz
      from ${studentEnrollments} e
      where s.school_id = ${schoolId} and s.status = 'active' and (s.session_id = ${from.id} or s.session_id is null)
        and e.school_id = ${schoolId} and e.session_id = ${to.id} and e.student_id = s.id`);
    summary.promoted = affected(promoted);
  }

  await tx
    .update(academicSessions)
    .set({ isPromotionCompleted: true })
    .where(and(eq(academicSessions.schoolId, schoolId), eq(academicSessions.id, to.id)));
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

/**
 * Whether creating `to` rolls the school over from `from`: only a session that starts after the
 * current one does (recording an older session for history moves nobody).
 */
export function rollsOver(from: SessionRow | undefined, to: SessionRow): from is SessionRow {
  return Boolean(from && from.id !== to.id && to.startDate > from.startDate);
}
