import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, getTableColumns, inArray, is, SQL, sql, type AnyColumn, type Placeholder } from 'drizzle-orm';
import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import { REMINDER_PREFERENCES, type CreateStudent } from '../../domain/students';
import type { Db } from '../db/client';
import {
  academicSessions,
  classFeeStructures,
  plans,
  previousBalances,
  receipts,
  rollCounters,
  schools,
  studentEnrollments,
  students,
} from '../db/schema';
import { maskAadhaar, type FieldCipher } from '../lib/crypto';
import { lockFor } from '../lib/locks';
import { executePrepared, memoByShape, statement } from '../lib/prepared';
import { rupeeStringSql } from '../lib/sql-money';
import { rowsOf } from '../lib/sql-rows';
import { rowsTable } from '../lib/sql-sets';
import { classOrderSql } from './class-order';
import { refreshBalances } from '../balances/refresh';

export type StudentRow = typeof students.$inferSelect;

const amount = z.string().regex(/^-?\d+\.\d{2}$/);

export const studentDto = z.object({
  id: z.string(),
  schoolId: z.string(),
  name: z.string(),
  class: z.string(),
  section: z.string(),
  rollNumber: z.number().int(),
  admissionNumber: z.string().nullable(),
  fatherName: z.string(),
  motherName: z.string(),
  dateOfBirth: z.string().nullable(),
  mobileNumber: z.string(),
  /** masked, `XXXX XXXX 1234`; the full number only through reveal-aadhaar */
  aadharNumber: z.string().nullable(),
  residence: z.string(),
  parentName: z.string(),
  parentPhone: z.string(),
  parentEmail: z.string(),
  parentWhatsApp: z.string(),
  monthlyBusFee: amount,
  enrollmentDate: z.string().nullable(),
  feesFromMonth: z.string().nullable().describe('YYYY-MM: monthly fees are due from this month of the student\'s session; null: from its start'),
  status: z.enum(['active', 'passout']),
  sessionId: z.string().nullable(),
  enableSmsReminders: z.boolean(),
  enableWhatsappReminders: z.boolean(),
  reminderPreference: z.enum(REMINDER_PREFERENCES),
  createdAt: z.string(),
  /** monthly tuition of the class fee structure of the student's class and session, "0.00" when none */
  monthlyFee: amount,
  /** the yearly (admission) fee of that structure, "0.00" when none */
  admissionFee: amount,
});
export type StudentDto = z.infer<typeof studentDto>;

export interface StudentWithFees {
  student: StudentRow;
  monthlyFee: number | null;
  admissionFee: number | null;
}

export function toStudentDto({ student: s, monthlyFee, admissionFee }: StudentWithFees): StudentDto {
  return {
    id: s.id,
    schoolId: s.schoolId,
    name: s.name,
    class: s.className,
    section: s.section,
    rollNumber: s.rollNumber,
    admissionNumber: s.admissionNumber,
    fatherName: s.fatherName,
    motherName: s.motherName,
    dateOfBirth: s.dateOfBirth,
    mobileNumber: s.mobileNumber,
    aadharNumber: maskAadhaar(s.aadhaarLast4),
    residence: s.residence,
    parentName: s.parentName,
    parentPhone: s.parentPhone,
    parentEmail: s.parentEmail,
    parentWhatsApp: s.parentWhatsApp,
    monthlyBusFee: toRupeeString(paise(s.monthlyBusFeePaise)),
    enrollmentDate: s.enrollmentDate,
    feesFromMonth: s.feesFromMonth,
    status: s.status,
    sessionId: s.sessionId,
    enableSmsReminders: s.enableSmsReminders,
    enableWhatsappReminders: s.enableWhatsappReminders,
    reminderPreference: s.reminderPreference,
    createdAt: s.createdAt.toISOString(),
    monthlyFee: toRupeeString(paise(Number(monthlyFee ?? 0))),
    admissionFee: toRupeeString(paise(Number(admissionFee ?? 0))),
  };
}

/** The join to the fee structure of a class in a session, which gives a student's fees. */
const structureOf = (schoolId: AnyColumn, className: AnyColumn, academicYear: AnyColumn | string) =>
  and(eq(classFeeStructures.schoolId, schoolId), eq(classFeeStructures.className, className), eq(classFeeStructures.academicYear, academicYear));

/** Students with the tuition and yearly fee of their class in their session (one join, no per-row reads). */
function selectWithFees(db: Db) {
  return db
    .select({ student: students, monthlyFee: classFeeStructures.monthlyTuitionFeePaise, admissionFee: classFeeStructures.yearlyFeePaise })
    .from(students)
    .leftJoin(academicSessions, eq(academicSessions.id, students.sessionId))
    .leftJoin(classFeeStructures, structureOf(students.schoolId, students.className, academicSessions.name));
}

export interface StudentFilter {
  schoolId: string;
  className?: string | undefined;
  section?: string | undefined;
  q?: string | undefined;
  /** one roll number in the class and section (the lookup by roll number) */
  rollNumber?: number | undefined;
  status: 'active' | 'passout' | 'all';
  /** students who sat in this session, placed where they sat in it (their enrollment) */
  session?: { id: string; name: string } | undefined;
  limit: number;
  offset: number;
  /** count every match for a full page (a count of a whole 60,000-student school costs more than the page) */
  withTotal?: boolean | undefined;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);


/**
 * A page of students in class order, section, roll number (read in that order off
 * students_school_class_order_idx, or where they sat in the named session), as the answer's JSON
 * text; and how many match in all when the page is short or it is asked for.
 *
 * PostgreSQL writes the JSON, as it does the roster's (decision 0055): the rows used to come back
 * as some 1,400 strings a page, were mapped into 50 objects and serialised again (decision 0081).
 */
export async function listStudents(db: Db, f: StudentFilter): Promise<{ json: string; total: number | undefined }> {
  const shape = shapeOf(f);
  const values: Record<ListValue, unknown> = {
    schoolId: f.schoolId,
    sessionId: f.session?.id ?? null,
    sessionName: f.session?.name ?? null,
    status: f.status,
    className: f.className ?? null,
    section: f.section ?? null,
    rollNumber: f.rollNumber ?? null,
    pattern: f.q ? `%${escapeLike(f.q)}%` : null,
    q: f.q ?? null,
    limit: f.limit,
    offset: f.offset,
    ids: null,
  };
  const found = lookupPlans(shape).planEachRun ? pageInTwo(db, shape, values) : pageStatement(shape)(db, values);
  const [page] = rowsOf<{ json: string; n: number | string }>(await found);
  const json = page?.json ?? '[]';
  const onPage = Number(page?.n ?? 0);
  // a short page that starts at the beginning already says how many there are
  if (f.offset === 0 && onPage < f.limit) return { json, total: onPage };
  if (!f.withTotal) return { json, total: undefined };
  const [counted] = rowsOf<{ n: string }>(await countStatement(shape)(db, values));
  return { json, total: Number(counted?.n ?? 0) };
}

/** Which filters a list has: each combination is one statement, assembled once. */
interface ListShape {
  session: boolean;
  status: boolean;
  className: boolean;
  section: boolean;
  rollNumber: boolean;
  q: boolean;
  /**
   * the text looked up has a digit (an admission number, most likely): the same statement under its
   * own name, so PostgreSQL may keep one plan for it, the trigram index's, right for a text that
   * few names contain; a lookup without one is planned for its pattern each time (decision 0057).
   * Its few students are found before they are sorted (decision 0087).
   */
  qHasDigit: boolean;
}
type ListValue = 'schoolId' | 'sessionId' | 'sessionName' | 'status' | 'className' | 'section' | 'rollNumber' | 'pattern' | 'q' | 'limit' | 'offset' | 'ids';

const shapeOf = (f: StudentFilter): ListShape => ({
  session: Boolean(f.session),
  status: f.status !== 'all',
  className: Boolean(f.className),
  section: Boolean(f.section),
  rollNumber: f.rollNumber !== undefined,
  q: Boolean(f.q),
  qHasDigit: /\d/.test(f.q ?? ''),
});

/**
 * The page is cut first, from the sort keys alone: without filters that is an index-only scan of
 * students_school_class_order_idx (its last columns are the class and the id), so a page deep in a
 * large school passes its offset in the index instead of reading every row it skips from the
 * table. The page's ids come out as an array in their order (`with ordinality` keeps it), and only
 * those rows are read whole and meet the fee structures: a plan that holds whatever the limit and
 * offset, so PostgreSQL plans it once per connection, not once per page (decision 0081). Joined to
 * the page as a subquery instead, a generic plan guessed a tenth of the school for the limit and
 * read every student.
 *
 * A lookup by a text with a digit collects its students first (a materialized CTE) and sorts only
 * them: cut straight off `order by … limit`, its generic plan walked the school's class-order index
 * testing every name, expecting a match early, and read the whole school for the one student whose
 * admission number it is (decision 0087).
 *
 * The fields, their order and formats are those of `studentDto` (`toStudentDto`): students.test.ts
 * compares a listed row with the student's own answer, field by field and in order.
 */
const pageStatement = memoByShape((shape: ListShape) =>
  statement<ListValue>((p) => pageRows(shape.session, p, sql`array(${pageIdsSql(shape, p)})`), { genericPlans: true }),
);

/**
 * A statement planned for each run's values (`lookupPlans`) is found in two: its page's ids, planned
 * each time, and their rows by the statement below, planned once per connection. Planned whole, a
 * lookup by name spent 0.5–0.7 ms a run planning the joins and the JSON of rows it had not yet found
 * against 0.14 ms for the ids alone (decision 0092).
 */
const pageIdsStatement = memoByShape((shape: ListShape) =>
  statement<ListValue>((p) => sql`select array(${pageIdsSql(shape, p)})::text as ids`, { planEachRun: true }),
);
const rowsOfIdsStatement = memoByShape((shape: { session: boolean }) =>
  statement<ListValue>((p) => pageRows(shape.session, p, sql`${p.ids}::uuid[]`), { genericPlans: true }),
);

async function pageInTwo(db: Db, shape: ListShape, values: Record<ListValue, unknown>) {
  const [found] = rowsOf<{ ids: string }>(await pageIdsStatement(shape)(db, values));
  return rowsOfIdsStatement({ session: shape.session })(db, { ...values, ids: found!.ids });
}

/** The ids of a page in its order: its students found, sorted, and cut (see `pageRows`). */
function pageIdsSql(shape: ListShape, p: Record<ListValue, Placeholder>): SQL {
  const { from, where, placed } = studentListScope(shape, p);
  const orderOf = (t: SQL, name: SQL) => sql`${classOrderSql(sql`${t}.class_name`)}, ${t}.section, ${t}.roll_number, ${name}`;
  return shape.qHasDigit
    ? sql`with found as materialized (select s.id, ${placed}.class_name, ${placed}.section, ${placed}.roll_number, s.name ${from} ${where})
          select found.id from found order by ${orderOf(sql.raw('found'), sql.raw('found.name'))} limit ${p.limit} offset ${p.offset}`
    : sql`select s.id ${from} ${where} order by ${orderOf(placed, sql.raw('s.name'))} limit ${p.limit} offset ${p.offset}`;
}

/**
 * The page's students `ids` (an array in the page's order) as the answer's JSON text, and how many.
 * Each student's own fields from the admission number to the creation time come rendered from the
 * row (`list_tail`, written by a trigger with the row, migration 0046): rendering them at every read
 * was two thirds of the statement (decision 0104). The head and the placement are added here, as the
 * placement is the named session's when there is one, and the class's fees, which are not the row's.
 */
function pageRows(session: boolean, p: Record<ListValue, Placeholder>, ids: SQL): SQL {
  const seat = session
    ? sql`join student_enrollments e on e.school_id = s.school_id and e.student_id = s.id and e.session_id = ${p.sessionId}
          left join class_fee_structures f on f.school_id = s.school_id and f.class_name = e.class_name and f.academic_year = ${p.sessionName}`
    : sql`left join academic_sessions a on a.id = s.session_id
          left join class_fee_structures f on f.school_id = s.school_id and f.class_name = s.class_name and f.academic_year = a.name`;
  const k = session ? sql.raw('e') : sql.raw('s');
  return sql`
    select coalesce('[' || string_agg(x.j, ',' order by x.n) || ']', '[]') as json, count(*)::int as n
    from (
      select page.n,
             '{"id":"' || s.id::text || '","schoolId":"' || s.school_id::text || '","name":' || to_json(s.name)::text
             || ',"class":' || to_json(${k}.class_name)::text || ',"section":' || to_json(${k}.section)::text
             || ',"rollNumber":' || ${k}.roll_number::text || s.list_tail
             || ',"monthlyFee":"' || ${rupeeStringSql(sql`coalesce(f.monthly_tuition_fee_paise, 0)`)}
             || '","admissionFee":"' || ${rupeeStringSql(sql`coalesce(f.yearly_fee_paise, 0)`)} || '"}' as j
      from unnest(${ids}) with ordinality page(id, n)
      join students s on s.school_id = ${p.schoolId} and s.id = page.id
      ${seat}
    ) x`;
}

const countStatement = memoByShape((shape: ListShape) =>
  statement<ListValue>((p) => {
    const { from, where } = studentListScope(shape, p);
    return sql`select count(*)::text as n ${from} ${where}`;
  }, lookupPlans(shape)),
);

/**
 * How a list's statement is planned (see `pageStatement`): a lookup by a text without a digit for
 * its pattern each time (decision 0057); so is a named session's list of more than one class: the
 * generic plan guesses a session of an average school, a few thousand rows, and sorts them all
 * instead of walking student_enrollments_school_session_class_order_idx to the page (85–140 ms
 * against 1–10 ms at 60,000 students, decision 0084). Every other list is always on its generic plan,
 * which is the custom one without the planning (decisions 0079, 0081). PostgreSQL's own choice
 * ('auto') planned the page for every request, since a known limit makes a custom plan's estimate a
 * little lower.
 */
const lookupPlans = (shape: ListShape) => {
  const planEachRun = (shape.q && !shape.qHasDigit) || (shape.session && !shape.className);
  return { planEachRun, genericPlans: !planEachRun };
};

/**
 * The rows a list reads and its filter: students `s` where they sit today, or where they sat in the
 * named session (its enrollment `e`); `placed` names the one whose class, section and roll count.
 */
function studentListScope(shape: ListShape, p: Record<ListValue, Placeholder>): { from: SQL; where: SQL; placed: SQL } {
  const from = shape.session ? sql`from student_enrollments e join students s on s.id = e.student_id and s.school_id = e.school_id` : sql`from students s`;
  const placed = shape.session ? sql.raw('e') : sql.raw('s');
  const where: SQL[] = [sql`s.school_id = ${p.schoolId}`];
  if (shape.session) where.push(sql`e.school_id = ${p.schoolId} and e.session_id = ${p.sessionId}`);
  if (shape.status) where.push(sql`s.status = ${p.status}`);
  if (shape.className) where.push(sql`${placed}.class_name = ${p.className}`);
  if (shape.section) where.push(sql`${placed}.section = ${p.section}`);
  if (shape.rollNumber) where.push(sql`${placed}.roll_number = ${p.rollNumber}`);
  if (shape.q) where.push(sql`(s.name ilike ${p.pattern} or lower(s.admission_number) = lower(${p.q}))`);
  return { from, where: sql`where ${sql.join(where, sql` and `)}`, placed };
}

/** A row of the roll-number picker of the fee screens: "roll - name", in roll order. */
export const rosterEntryDto = z.object({
  id: z.string(),
  name: z.string(),
  rollNumber: z.number().int(),
});

/** What the fee screens and their dialogs need of the student picked from the roster. */
export const rosterStudentDto = z.object({
  id: z.string(),
  name: z.string(),
  class: z.string(),
  section: z.string(),
  rollNumber: z.number().int(),
  admissionNumber: z.string().nullable(),
  fatherName: z.string(),
  status: z.enum(['active', 'passout']),
  sessionId: z.string().nullable(),
  monthlyBusFee: amount,
  monthlyFee: amount,
  admissionFee: amount,
});
export type RosterStudentDto = z.infer<typeof rosterStudentDto>;

export interface RosterFilter {
  schoolId: string;
  className: string;
  section: string;
  status: 'active' | 'passout' | 'all';
  /** where the students sat in this session (their enrollment) instead of where they sit today */
  session?: { id: string; name: string } | undefined;
}

/** Where a roster's students sit: their enrollment in a session (`e`), or today's placement (`s`). */
const rosterPlaced = (session: RosterFilter['session']) => sql.raw(session ? 'e' : 's');

/**
 * One class and section in roll order with only what the roll-number picker shows (`rosterEntryDto`),
 * as the answer's JSON text, built by PostgreSQL: one indexed read (school, status, class, section,
 * roll), nothing joined. At 60,000 students a section is over 600 students; with everything the
 * screens need of the student picked (class, fees, father, session) on every row, the answer was
 * 209 KB that PostgreSQL wrote, the app compressed and the browser parsed for a list that shows
 * "roll - name" (decision 0083). The picked student's row is `rosterStudentJson`. The text is sent as
 * it is, not parsed and serialised again by the app (decision 0055); students.test.ts checks the
 * fields, their order and formats against the DTO.
 */
export async function rosterJson(db: Db, f: RosterFilter): Promise<string> {
  const placed = rosterPlaced(f.session);
  const from = f.session
    ? sql`from student_enrollments e
          join students s on s.id = e.student_id and s.school_id = e.school_id
          where e.school_id = ${f.schoolId} and e.session_id = ${f.session.id} and`
    : sql`from students s where`;
  const status = f.status === 'all' ? sql`` : sql` and s.status = ${f.status}`;
  const result = await executePrepared(db, sql`
    select coalesce(json_agg(r order by r."rollNumber", r.name), '[]'::json)::text as json
    from (
      select s.id, s.name, ${placed}.roll_number as "rollNumber"
      ${from} s.school_id = ${f.schoolId} and ${placed}.class_name = ${f.className} and ${placed}.section = ${f.section}${status}
    ) r`);
  return rowsOf<{ json: string }>(result)[0]!.json;
}

/**
 * The student picked from a roster, as the fee screens and their dialogs need them (`rosterStudentDto`),
 * as JSON text: where they sat in the session (or sit today), with that session's class fees.
 * Undefined when the school has no such student, or the student was not in that session.
 */
export async function rosterStudentJson(
  db: Db,
  { schoolId, id, session }: { schoolId: string; id: string; session: RosterFilter['session'] },
): Promise<string | undefined> {
  const placed = rosterPlaced(session);
  const from = session
    ? sql`from student_enrollments e
          join students s on s.id = e.student_id and s.school_id = e.school_id
          left join class_fee_structures f on f.school_id = e.school_id and f.class_name = e.class_name and f.academic_year = ${session.name}
          where e.school_id = ${schoolId} and e.session_id = ${session.id} and e.student_id = ${id} and`
    : sql`from students s
          left join academic_sessions a on a.id = s.session_id
          left join class_fee_structures f on f.school_id = s.school_id and f.class_name = s.class_name and f.academic_year = a.name
          where s.id = ${id} and`;
  const result = await executePrepared(db, sql`
    select row_to_json(r)::text as json
    from (
      select s.id, s.name, ${placed}.class_name as "class", ${placed}.section, ${placed}.roll_number as "rollNumber",
             s.admission_number as "admissionNumber", s.father_name as "fatherName", s.status, s.session_id as "sessionId",
             ${rupeeStringSql(sql`s.monthly_bus_fee_paise`)} as "monthlyBusFee",
             ${rupeeStringSql(sql`coalesce(f.monthly_tuition_fee_paise, 0)`)} as "monthlyFee",
             ${rupeeStringSql(sql`coalesce(f.yearly_fee_paise, 0)`)} as "admissionFee"
      ${from} s.school_id = ${schoolId}
    ) r`);
  return rowsOf<{ json: string }>(result)[0]?.json;
}

export async function findStudentWithFees(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<StudentWithFees | undefined> {
  const [row] = await selectWithFees(db)
    .where(and(eq(students.schoolId, schoolId), eq(students.id, id)))
    .limit(1);
  return row;
}

export async function findStudent(db: Db, { schoolId, id }: { schoolId: string; id: string }): Promise<StudentRow | undefined> {
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.schoolId, schoolId), eq(students.id, id)))
    .limit(1);
  return row;
}

/**
 * Active students per class and section, in class order: the pickers and "classes with student
 * counts". With a session: where the active students sat in that session.
 */
export async function classSummary(
  db: Db,
  { schoolId, sessionId }: { schoolId: string; sessionId?: string | undefined },
): Promise<Array<{ class: string; section: string; count: number }>> {
  if (sessionId) {
    const placed = await db
      .select({ class: studentEnrollments.className, section: studentEnrollments.section, count: count() })
      .from(studentEnrollments)
      .innerJoin(students, and(eq(students.id, studentEnrollments.studentId), eq(students.schoolId, studentEnrollments.schoolId)))
      .where(and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.sessionId, sessionId), eq(students.status, 'active')))
      .groupBy(studentEnrollments.className, studentEnrollments.section)
      .orderBy(classOrderSql(studentEnrollments.className), asc(studentEnrollments.section));
    return placed.map((r) => ({ class: r.class, section: r.section, count: Number(r.count) }));
  }
  const rows = await db
    .select({ class: students.className, section: students.section, count: count() })
    .from(students)
    .where(and(eq(students.schoolId, schoolId), eq(students.status, 'active')))
    .groupBy(students.className, students.section)
    .orderBy(classOrderSql(students.className), asc(students.section));
  return rows.map((r) => ({ class: r.class, section: r.section, count: Number(r.count) }));
}

/** Serialises adding students in one school, so the plan limit holds under simultaneous adds. */
export const lockStudentAdds = (tx: Db, schoolId: string) => lockFor(tx, `student-adds:${schoolId}`);

export interface RollGroup {
  className: string;
  section: string;
}
const groupKey = (g: RollGroup) => `${g.className}|${g.section}`;

/** The highest roll number anyone holds in a group of a session (promotions place students without the counter). */
const maxEnrolledRoll = (schoolId: string, sessionId: string, classCol: SQL, sectionCol: SQL) => sql`coalesce((
  select max(e.roll_number) from ${studentEnrollments} e
  where e.school_id = ${schoolId} and e.session_id = ${sessionId} and e.class_name = ${classCol} and e.section = ${sectionCol}), 0)`;

/** What the next allocation in a group would hand out; allocates nothing. */
export async function peekNextRollNumber(
  db: Db,
  { schoolId, sessionId, className, section }: { schoolId: string; sessionId: string } & RollGroup,
): Promise<number> {
  const result = await db.execute(sql`
    select greatest(
      coalesce((select c.last_roll from ${rollCounters} c
        where c.school_id = ${schoolId} and c.session_id = ${sessionId} and c.class_name = ${className} and c.section = ${section}), 0),
      ${maxEnrolledRoll(schoolId, sessionId, sql`${className}`, sql`${section}`)}
    ) + 1 as next`);
  return Number(rowsOf<{ next: number | string }>(result)[0]!.next);
}

/**
 * Hands out `count` consecutive roll numbers in each group (ruling 10): per school, session, class
 * and section, never reused, safe under simultaneous requests because the counter row is updated
 * in place (a second transaction waits for the first and then sees its number). One statement for
 * any number of groups: a group's first allocation inserts its counter, later ones update it, each
 * past anyone already enrolled in the group. Returns the first number of each group.
 *
 * `synced`: `syncRollCounters` has run for the session since anyone was placed without the counter,
 * so the counters alone are the highest numbers held and the enrollments are not read. A bulk import
 * syncs once and then allocates per batch: reading the enrollments per group and batch, the planner
 * could walk the school's every enrollment for each group (it had no statistics yet for a new
 * school's rows), and a 5,000-row import grew from 4 ms to 130 ms per batch as it filled them.
 */
export async function allocateRollNumbers(
  tx: Db,
  { schoolId, sessionId, groups, synced = false }: { schoolId: string; sessionId: string; groups: Array<RollGroup & { count: number }>; synced?: boolean },
): Promise<Map<string, number>> {
  if (groups.length === 0) return new Map();
  const values = sql.join(
    groups.map((g) => sql`(${g.className}::text, ${g.section}::text, ${g.count}::int)`),
    sql`, `,
  );
  const counts = new Map(groups.map((g) => [groupKey(g), g.count]));
  const result = await tx.execute(
    synced
      ? sql`
    insert into ${rollCounters} as c (school_id, session_id, class_name, section, last_roll)
    select ${schoolId}::uuid, ${sessionId}::uuid, v.class_name, v.section, v.n
    from (values ${values}) as v(class_name, section, n)
    on conflict (school_id, session_id, class_name, section) do update set last_roll = c.last_roll + excluded.last_roll
    returning c.class_name, c.section, c.last_roll`
      : // excluded.last_roll is (highest enrolled) + n, so n = excluded.last_roll - (highest enrolled)
        sql`
    insert into ${rollCounters} as c (school_id, session_id, class_name, section, last_roll)
    select ${schoolId}::uuid, ${sessionId}::uuid, v.class_name, v.section,
           ${maxEnrolledRoll(schoolId, sessionId, sql`v.class_name`, sql`v.section`)} + v.n
    from (values ${values}) as v(class_name, section, n)
    on conflict (school_id, session_id, class_name, section) do update
      set last_roll = excluded.last_roll + greatest(c.last_roll - ${maxEnrolledRoll(schoolId, sessionId, sql`excluded.class_name`, sql`excluded.section`)}, 0)
    returning c.class_name, c.section, c.last_roll`,
  );
  const first = new Map<string, number>();
  for (const row of rowsOf<{ class_name: string; section: string; last_roll: number | string }>(result)) {
    const key = groupKey({ className: row.class_name, section: row.section });
    first.set(key, Number(row.last_roll) - counts.get(key)! + 1);
  }
  return first;
}
export { groupKey as rollGroupKey };

/**
 * Raises every group's counter of a session to the highest roll number enrolled in it, in one pass
 * over the session's enrollments: afterwards the counters alone say what is taken, for as long as
 * everyone placed in the session is numbered through `allocateRollNumbers` (or `bumpRollCounter`),
 * as every path does but the start of a session and the demo generator, which call this after
 * placing their students.
 */
export async function syncRollCounters(tx: Db, { schoolId, sessionId }: { schoolId: string; sessionId: string }): Promise<void> {
  await tx.execute(sql`
    insert into ${rollCounters} (school_id, session_id, class_name, section, last_roll)
    select school_id, session_id, class_name, section, max(roll_number) from ${studentEnrollments}
    where school_id = ${schoolId} and session_id = ${sessionId}
    group by school_id, session_id, class_name, section
    on conflict (school_id, session_id, class_name, section) do update set last_roll = greatest(${rollCounters}.last_roll, excluded.last_roll)`);
}

/** Every group's last roll number handed out in a session, by `rollGroupKey` (after `syncRollCounters`). */
export async function rollCountersOf(tx: Db, { schoolId, sessionId }: { schoolId: string; sessionId: string }): Promise<Map<string, number>> {
  const result = await tx.execute(sql`
    select class_name, section, last_roll from ${rollCounters} where school_id = ${schoolId} and session_id = ${sessionId}`);
  return new Map(rowsOf<{ class_name: string; section: string; last_roll: number | string }>(result).map((r) => [groupKey({ className: r.class_name, section: r.section }), Number(r.last_roll)]));
}

/** Moves a group's counter past a number set by hand on edit, so allocation never hands it out again. */
export async function bumpRollCounter(
  tx: Db,
  { schoolId, sessionId, className, section, rollNumber }: { schoolId: string; sessionId: string; rollNumber: number } & RollGroup,
): Promise<void> {
  await tx
    .insert(rollCounters)
    .values({ schoolId, sessionId, className, section, lastRoll: rollNumber })
    .onConflictDoUpdate({
      target: [rollCounters.schoolId, rollCounters.sessionId, rollCounters.className, rollCounters.section],
      set: { lastRoll: sql`greatest(${rollCounters.lastRoll}, ${rollNumber})` },
    });
}

export interface PlanRoom {
  planName: string;
  limit: number | null;
  active: number;
}

/** The school's plan limit (ruling 13) and how many active students count against it. */
export async function planRoom(db: Db, { schoolId }: { schoolId: string }): Promise<PlanRoom> {
  const [row] = await db
    .select({
      planName: plans.name,
      limit: plans.studentLimit,
      active: sql<number>`(select count(*) from ${students} s where s.school_id = ${schoolId} and s.status = 'active')`,
    })
    .from(schools)
    .innerJoin(plans, eq(plans.id, schools.subscriptionPlan))
    .where(eq(schools.id, schoolId))
    .limit(1);
  if (!row) throw new Error(`school ${schoolId} has no plan`);
  return { planName: row.planName, limit: row.limit, active: Number(row.active) };
}

export function planLimitMessage(room: Pick<PlanRoom, 'planName' | 'limit'>): string {
  return `Your ${room.planName} plan allows up to ${room.limit} students. Upgrade your plan to add more.`;
}

/** Admission numbers among `numbers` already used in the school (by anyone but `exceptId`). */
export async function takenAdmissionNumbers(
  db: Db,
  { schoolId, numbers, exceptId }: { schoolId: string; numbers: string[]; exceptId?: string },
): Promise<Set<string>> {
  if (numbers.length === 0) return new Set();
  const rows = await db
    .select({ n: students.admissionNumber })
    .from(students)
    .where(
      and(
        eq(students.schoolId, schoolId),
        inArray(students.admissionNumber, numbers),
        exceptId ? sql`${students.id} <> ${exceptId}` : undefined,
      ),
    );
  return new Set(rows.map((r) => r.n!));
}

export interface Placement {
  sessionId: string;
  rollNumber: number;
  /** `YYYY-MM-DD`, used when the input gives no enrollment date */
  today: string;
  now: Date;
}

/**
 * How an Aadhaar number is stored (ruling 24): encrypted, its last four digits in clear for the
 * mask, and its blind index for finding duplicates. Null clears all three.
 */
export function aadhaarColumns(cipher: FieldCipher, digits: string | null) {
  return digits
    ? { aadhaarEncrypted: cipher.encrypt(digits), aadhaarLast4: digits.slice(-4), aadhaarHash: cipher.blindIndex('aadhaar', digits) }
    : { aadhaarEncrypted: null, aadhaarLast4: null, aadhaarHash: null };
}

/** The row to insert for a new student; Aadhaar is encrypted and only its last four digits kept in clear. */
export type NewStudentRow = typeof students.$inferInsert & { id: string; sessionId: string };

export function newStudentValues(schoolId: string, input: CreateStudent, placement: Placement, cipher: FieldCipher): NewStudentRow {
  return {
    id: randomUUID(),
    schoolId,
    admissionNumber: input.admissionNumber,
    name: input.name,
    className: input.class,
    section: input.section,
    rollNumber: placement.rollNumber,
    sessionId: placement.sessionId,
    fatherName: input.fatherName,
    motherName: input.motherName,
    dateOfBirth: input.dateOfBirth,
    mobileNumber: input.mobileNumber,
    ...aadhaarColumns(cipher, input.aadharNumber),
    residence: input.residence,
    parentName: input.parentName,
    parentPhone: input.parentPhone,
    parentEmail: input.parentEmail,
    parentWhatsApp: input.parentWhatsApp,
    monthlyBusFeePaise: input.monthlyBusFee,
    enrollmentDate: input.enrollmentDate ?? placement.today,
    // a student admitted mid-year owes monthly fees from the month of admission (issue 11)
    feesFromMonth: input.feesFromMonth === undefined ? (input.enrollmentDate ?? placement.today).slice(0, 7) : input.feesFromMonth,
    enableSmsReminders: input.enableSmsReminders,
    enableWhatsappReminders: input.enableWhatsappReminders,
    reminderPreference: input.reminderPreference,
    createdAt: placement.now,
    updatedAt: placement.now,
  };
}

/** The student the Add Student request with this key added (ruling 5), if any. */
export async function findStudentByClientId(db: Db, { schoolId, clientId }: { schoolId: string; clientId: string }): Promise<StudentRow | undefined> {
  const [row] = await db
    .select()
    .from(students)
    .where(and(eq(students.schoolId, schoolId), eq(students.clientId, clientId)))
    .limit(1);
  return row;
}

/**
 * Whether a stored student is what this Add Student request asks to add (a replay of the same press):
 * every field the request sets, as `newStudentValues` stores it. The enrollment date and the month
 * fees start from are compared when the request gives them; left out, they were the day of the first
 * press, which a retry after midnight would not repeat. The Aadhaar number by its blind index.
 */
export function addsTheSameStudent(row: StudentRow, input: CreateStudent, cipher: FieldCipher): boolean {
  const aadhaarHash = input.aadharNumber ? cipher.blindIndex('aadhaar', input.aadharNumber) : null;
  return (
    row.name === input.name &&
    row.className === input.class &&
    row.section === input.section &&
    row.admissionNumber === input.admissionNumber &&
    row.fatherName === input.fatherName &&
    row.motherName === input.motherName &&
    row.dateOfBirth === input.dateOfBirth &&
    row.mobileNumber === input.mobileNumber &&
    (row.aadhaarHash ?? null) === aadhaarHash &&
    row.residence === input.residence &&
    row.parentName === input.parentName &&
    row.parentPhone === input.parentPhone &&
    row.parentEmail === input.parentEmail &&
    row.parentWhatsApp === input.parentWhatsApp &&
    Number(row.monthlyBusFeePaise) === input.monthlyBusFee &&
    (input.enrollmentDate === null || row.enrollmentDate === input.enrollmentDate) &&
    (input.feesFromMonth === undefined || row.feesFromMonth === input.feesFromMonth) &&
    row.enableSmsReminders === input.enableSmsReminders &&
    row.enableWhatsappReminders === input.enableWhatsappReminders &&
    row.reminderPreference === input.reminderPreference
  );
}

/** Inserts students and their enrollment in their session: two statements for any number of rows. */
export async function insertStudents(tx: Db, rows: NewStudentRow[]): Promise<StudentRow[]> {
  if (rows.length === 0) return [];
  const inserted = await tx.insert(students).values(rows).returning();
  await tx.insert(studentEnrollments).values(
    rows.map((r) => ({
      schoolId: r.schoolId,
      studentId: r.id,
      sessionId: r.sessionId,
      className: r.className,
      section: r.section ?? 'A',
      rollNumber: r.rollNumber,
      createdAt: r.createdAt,
    })),
  );
  // every new student's balances in one pass (a 5,000-row import included)
  await refreshBalances(tx, { schoolId: rows[0]!.schoolId, studentIds: inserted.map((s) => s.id) });
  return inserted;
}

/**
 * A bulk import's batch in ONE statement (decision 0007): the students as one array per column, their
 * enrollments from what that insert returns, the statements `extra` (their running balances, the
 * audit row) as more common tables. Drizzle's own insert built a parameter per value (thirty
 * columns a row) and took longer in Node than PostgreSQL took to store them; here each column is one
 * array parameter (`rowsTable`), typed as the table declares it. Foreign keys are checked at the end
 * of the statement, when every common table has run. Built apart from sending it: an import builds
 * the next batch's statement while PostgreSQL stores one (decision 0106).
 */
export function studentBatchStatement(rows: readonly NewStudentRow[], extra: readonly SQL[]): SQL {
  const columns = Object.entries(getTableColumns(students)).filter(([key]) => rows.some((r) => (r as Record<string, unknown>)[key] !== undefined));
  const values = rows.map((r) =>
    columns.map(([key, column]) => {
      let value = (r as Record<string, unknown>)[key];
      // a value left out takes the column's default, as Drizzle's insert would give it
      if (value === undefined && column.default !== undefined && !is(column.default, SQL)) value = column.default;
      return value === undefined || value === null ? null : column.mapToDriverValue(value);
    }),
  );
  const names = columns.map(([, c]) => c.name).join(', ');
  const parts = [
    sql`new_students as (
      insert into ${students} (${sql.raw(names)})
      select ${sql.raw(columns.map(([, c]) => `x.${c.name}`).join(', '))}
      from ${rowsTable(columns.map(([, c]) => [c.name, c.getSQLType()] as const), values)}
      returning id, school_id, session_id, class_name, section, roll_number, created_at)`,
    sql`new_enrollments as (
      insert into ${studentEnrollments} (school_id, student_id, session_id, class_name, section, roll_number, created_at)
      select school_id, id, session_id, class_name, section, roll_number, created_at from new_students)`,
    ...extra.map((statement, i) => sql`${sql.identifier(`batch${i}`)} as (${statement})`),
  ];
  return sql`with ${sql.join(parts, sql`, `)} select 1`;
}

/** Who, if anyone but `exceptId`, holds a roll number in a class and section of a session. */
export async function rollHolder(
  db: Db,
  { schoolId, sessionId, className, section, rollNumber, exceptId }: { schoolId: string; sessionId: string; rollNumber: number; exceptId: string } & RollGroup,
): Promise<string | undefined> {
  const [row] = await db
    .select({ studentId: studentEnrollments.studentId })
    .from(studentEnrollments)
    .where(
      and(
        eq(studentEnrollments.schoolId, schoolId),
        eq(studentEnrollments.sessionId, sessionId),
        eq(studentEnrollments.className, className),
        eq(studentEnrollments.section, section),
        eq(studentEnrollments.rollNumber, rollNumber),
        sql`${studentEnrollments.studentId} <> ${exceptId}`,
      ),
    )
    .limit(1);
  return row?.studentId;
}

/** Keeps the enrollment of the student's session equal to their placement (creates it when missing). */
export async function upsertEnrollment(
  tx: Db,
  { schoolId, studentId, sessionId, className, section, rollNumber, now }: { schoolId: string; studentId: string; sessionId: string; rollNumber: number; now: Date } & RollGroup,
): Promise<void> {
  await tx
    .insert(studentEnrollments)
    .values({ schoolId, studentId, sessionId, className, section, rollNumber, createdAt: now })
    .onConflictDoUpdate({
      target: [studentEnrollments.schoolId, studentEnrollments.studentId, studentEnrollments.sessionId],
      set: { className, section, rollNumber },
    });
}

/**
 * Whether the books hold money for the student: a receipt (live or cancelled, both stay visible)
 * or a balance carried from an earlier session. Such a student is never deleted, so no money
 * disappears; they are discharged instead. One EXISTS over indexed rows.
 */
export async function studentHasMoney(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<boolean> {
  const result = await db.execute(sql`select (
      exists (select 1 from ${receipts} r where r.school_id = ${schoolId} and r.student_id = ${studentId})
      or exists (select 1 from ${previousBalances} b where b.school_id = ${schoolId} and b.student_id = ${studentId}
                 and (b.monthly_outstanding_paise > 0 or b.yearly_outstanding_paise > 0))
      or exists (select 1 from opening_balances o where o.school_id = ${schoolId} and o.student_id = ${studentId})
    ) as has_money`);
  return Boolean(rowsOf<{ has_money: boolean }>(result)[0]?.has_money);
}

/**
 * Removes a student and their enrollments (their marks follow by cascade). Roll counters keep their
 * numbers. A rollover notes a balance for everyone, nothing owed included: those empty notes go too
 * (`studentHasMoney` has already refused a student with anything carried or received).
 */
export async function deleteStudent(tx: Db, { schoolId, studentId }: { schoolId: string; studentId: string }): Promise<void> {
  await tx.delete(previousBalances).where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.studentId, studentId)));
  await tx.delete(studentEnrollments).where(and(eq(studentEnrollments.schoolId, schoolId), eq(studentEnrollments.studentId, studentId)));
  await tx.delete(students).where(and(eq(students.schoolId, schoolId), eq(students.id, studentId)));
}
