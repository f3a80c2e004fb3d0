import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { computeBalances, type ComputedBalances } from './compute';
import { balanceInputsFrom, loadBalanceInputs, type BalanceInputRows, type BalanceStudent, type StudentSet } from './inputs';
import { rowsOf } from '../lib/sql-rows';
import { rowsLiterals, rowsTableOf, uuidArray, type SetColumn } from '../lib/sql-sets';
import { lockSchoolLedger } from '../fees/locks';

export interface BalanceScope {
  schoolId: string;
  studentIds: readonly string[];
  /** only these sessions of the students; every session they have when left out */
  sessionIds?: readonly string[];
}

/**
 * The one call every write that changes what a student owes or has paid makes, in its own
 * transaction, after writing (issue 14, decision 0041). Recomputes the named students' running
 * balances FROM SOURCE: one read of everything they depend on (`inputs.ts`), the domain function
 * per session (`compute.ts`), one upsert, and one delete of rows that no longer apply (a session
 * the student no longer sits in). Recomputing rather than adding deltas makes every write path
 * correct by construction, whatever it wrote: a refresh is the verify-ledger check, stored.
 */
export async function refreshBalances(db: Db, scope: BalanceScope): Promise<void> {
  const ids = [...new Set(scope.studentIds)];
  if (ids.length === 0) return;
  await refreshSet(db, scope.schoolId, ids, scope.sessionIds);
}

/**
 * A change that moves the dues of many students at once (a fee structure, an instalment plan) holds
 * the school's ledger lock EXCLUSIVELY before it reads: receipts hold it shared, so one in flight
 * commits first and is read here, and one that starts later waits and reads the new dues. Without
 * it, a receipt's own refresh, computed under the old dues, could be written over this one's rows
 * last and leave them stale (decision 0041).
 */
export async function lockForManyStudents(db: Db, schoolId: string): Promise<void> {
  await lockSchoolLedger(db, { schoolId });
}

/** Every student of a school in one pass: the demo seed, the bench generator, plan changes and repairs. */
export async function rebuildSchoolBalances(db: Db, schoolId: string): Promise<void> {
  await lockForManyStudents(db, schoolId);
  await refreshSet(db, schoolId, undefined);
}

/**
 * A fee structure changed: every student who sits or sat in those classes, in any session, found
 * with one read and refreshed in one pass (a structure is per class and year; the few other
 * sessions of those students are recomputed too, which costs nothing extra in reads).
 */
export async function refreshClassBalances(db: Db, { schoolId, classNames }: { schoolId: string; classNames: readonly string[] }): Promise<void> {
  await lockForManyStudents(db, schoolId);
  const lowered = `{${[...new Set(classNames.map((c) => `"${c.toLowerCase().replace(/["\\]/g, '')}"`))].join(',')}}`;
  const result = await db.execute(sql`
    select id from students where school_id = ${schoolId} and lower(class_name) = any(${lowered}::text[])
    union
    select student_id from student_enrollments where school_id = ${schoolId} and lower(class_name) = any(${lowered}::text[])`);
  await refreshBalances(db, { schoolId, studentIds: rowsOf<{ id: string }>(result).map((r) => r.id) });
}

/**
 * The active session changed: a student never placed in a session is counted in the active one,
 * so their rows move with it (normally nobody: every added student is placed).
 */
export async function refreshUnplacedBalances(db: Db, schoolId: string): Promise<void> {
  const result = await db.execute(sql`select id from students where school_id = ${schoolId} and session_id is null`);
  await refreshBalances(db, { schoolId, studentIds: rowsOf<{ id: string }>(result).map((r) => r.id) });
}

async function refreshSet(db: Db, schoolId: string, ids: StudentSet, sessionIds?: readonly string[]): Promise<void> {
  const computed = computeBalances(await loadBalanceInputs(db, { schoolId, studentIds: ids }));
  if (sessionIds) computed.sessions = computed.sessions.filter((r) => sessionIds.includes(r.sessionId));
  await writeBalances(db, schoolId, ids, computed, sessionIds);
}

const SESSION_COLUMNS = [
  ['class_name', 'text'],
  ['section', 'text'],
  ['roll_number', 'int'],
  ['first_key', 'text'],
  ['last_key', 'text'],
  ['start_key', 'text'],
  ['tuition_paise', 'bigint'],
  ['bus_paise', 'bigint'],
  ['admission_expected', 'bigint'],
  ['exam_expected', 'bigint'],
  ['books_expected', 'bigint'],
  ['uniform_expected', 'bigint'],
  ['misc_expected', 'bigint'],
  ['admission_paid', 'bigint'],
  ['exam_paid', 'bigint'],
  ['books_paid', 'bigint'],
  ['uniform_paid', 'bigint'],
  ['misc_paid', 'bigint'],
  ['yearly_owed', 'bigint'],
  ['yearly_owed_by_month', 'bigint[]'],
  ['due_through', 'int[]'],
  ['yearly_due_by_month', 'bigint[]'],
  ['yearly_granted_by_month', 'bigint[]'],
  ['yearly_received_by_month', 'bigint[]'],
  ['tuition_mask', 'bigint'],
  ['bus_mask', 'bigint'],
  ['monthly_owed', 'bigint[]'],
  ['monthly_granted', 'bigint[]'],
  ['yearly_granted', 'bigint'],
  ['monthly_applied', 'bigint[]'],
  ['monthly_discount', 'bigint[]'],
  ['yearly_applied', 'bigint'],
  ['monthly_paid', 'bigint[]'],
  ['bus_paid', 'bigint'],
  ['monthly_received', 'bigint'],
  ['yearly_received', 'bigint'],
  ['extras_received', 'bigint'],
  ['received', 'bigint'],
  ['closed', 'boolean'],
  ['through_month', 'text'],
  ['carried_paise', 'bigint'],
  ['carried_paid', 'bigint'],
  ['carried_remaining', 'bigint'],
] as const;

const STUDENT_COLUMNS = [
  ['opening_paise', 'bigint'],
  ['opening_paid', 'bigint'],
  ['opening_remaining', 'bigint'],
  ['carried_remaining', 'bigint'],
  ['carried_monthly_remaining', 'bigint'],
  ['carried_yearly_remaining', 'bigint'],
  ['credit_paise', 'bigint'],
] as const;

const camel = (snake: string) => snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const names = (cols: ReadonlyArray<SetColumn>) => cols.map(([c]) => c).join(', ');
const updates = (cols: ReadonlyArray<SetColumn>) => cols.map(([c]) => `${c} = excluded.${c}`).join(', ');
/**
 * An upsert's condition that a stored row of `table` differs from the computed one: a row that is
 * already right is not written again (decision 0085). A payment recomputes every session of its
 * student and stored 2.8 session rows for the one it changed: each a new row version, its WAL and,
 * without room on its page, new entries in every index. Unchanged rows are not marked either, as
 * nothing the whole-school rows read from them moved.
 */
const changed = (table: string, cols: ReadonlyArray<SetColumn>) =>
  `(${cols.map(([c]) => `${table}.${c}`).join(', ')}) is distinct from (${cols.map(([c]) => `excluded.${c}`).join(', ')})`;
const SESSION_CHANGED = changed('student_session_balances', SESSION_COLUMNS);
const STUDENT_CHANGED = changed('student_balances', STUDENT_COLUMNS);

const SESSION_TABLE = [['student_id', 'uuid'], ['session_id', 'uuid'], ...SESSION_COLUMNS] as const satisfies ReadonlyArray<SetColumn>;
const STUDENT_TABLE = [['student_id', 'uuid'], ...STUDENT_COLUMNS] as const satisfies ReadonlyArray<SetColumn>;
// the property of each column once, not a regular expression per column per row
const SESSION_PROPS = SESSION_TABLE.map(([c]) => camel(c));
const STUDENT_PROPS = STUDENT_TABLE.map(([c]) => camel(c));

/** Computed rows as `rowsLiterals` sends them: one array literal per column of `props`. */
function literalsOf(rows: ReadonlyArray<object>, table: ReadonlyArray<SetColumn>, props: readonly string[]): string[] {
  return rowsLiterals(
    table,
    rows.map((r) => {
      const rec = r as Record<string, unknown>;
      return props.map((key) => rec[key]);
    }),
  );
}

/**
 * Rows per upsert statement: a whole school's rollover refreshes 180,000 session rows at 60,000
 * students, about 90 MB of parameters (over 250 MB when they were one JSON array, past jsonb's
 * limit). In chunks of this size each statement carries a few megabytes, all in the caller's
 * transaction.
 */
export const WRITE_CHUNK = 5_000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) out.push(rows.slice(i, i + WRITE_CHUNK));
  return out;
}

/**
 * The statements of `balanceWrites`, over their parameters as given: values, or placeholders of a
 * statement assembled once (a receipt's write, `oneStudentBalanceSql`). `scope` narrows the school's
 * rows the delete looks at; `keep` is the rows that stay, one text array of "student/session" keys
 * (74 bytes each: 180,000 are 13 MB); `columns` one array per column of the table.
 */
const staleDelete = (schoolId: unknown, scope: SQL, keep: unknown) => sql`
    delete from student_session_balances b
    where b.school_id = ${schoolId}${scope}
      and (b.student_id::text || '/' || b.session_id::text) <> all(${keep}::text[])`;
const sessionUpsert = (schoolId: unknown, columns: ReadonlyArray<unknown>) => sql`
      insert into student_session_balances (school_id, student_id, session_id, ${sql.raw(names(SESSION_COLUMNS))}, refreshed_at)
      select ${schoolId}::uuid, x.student_id, x.session_id, ${sql.raw(names(SESSION_COLUMNS).replace(/(\w+)/g, 'x.$1'))}, now()
      from ${rowsTableOf(SESSION_TABLE, columns)}
      on conflict (school_id, student_id, session_id) do update set ${sql.raw(updates(SESSION_COLUMNS))}, refreshed_at = now()
        where ${sql.raw(SESSION_CHANGED)}`;
const studentUpsert = (schoolId: unknown, columns: ReadonlyArray<unknown>) => sql`
      insert into student_balances (school_id, student_id, ${sql.raw(names(STUDENT_COLUMNS))}, refreshed_at)
      select ${schoolId}::uuid, x.student_id, ${sql.raw(names(STUDENT_COLUMNS).replace(/(\w+)/g, 'x.$1'))}, now()
      from ${rowsTableOf(STUDENT_TABLE, columns)}
      on conflict (school_id, student_id) do update set ${sql.raw(updates(STUDENT_COLUMNS))}, refreshed_at = now()
        where ${sql.raw(STUDENT_CHANGED)}`;

/** "student/session" of each computed session row, as `staleDelete`'s `keep` array. */
const keepOf = (computed: ComputedBalances) => `{${computed.sessions.map((r) => `${r.studentId}/${r.sessionId}`).join(',')}}`;

/**
 * The statements that store computed rows: the delete of rows that no longer apply, then upserts in
 * chunks over one array parameter per column (`rowsTable`: no parameter limit). Each is one
 * data-modifying statement, so a caller may also run them as common tables of one statement.
 */
export function balanceWrites(schoolId: string, ids: StudentSet, computed: ComputedBalances, sessionIds?: readonly string[]): { stale: SQL; sessionRows: SQL[]; studentRows: SQL[] } {
  // every condition a filter on the one scan of the school's rows, never a join: `= any` and
  // `<> all` over a constant array are hashed (PostgreSQL 14 and 15), so the delete is linear
  // whatever the planner believes of the table. As joins (a semi-join over unnest, NOT EXISTS), a
  // school's first rollover right after its rows were written, with statistics saying the table was
  // empty, was planned as nested loops over 116,000 pairs per row and ran for over 20 minutes.
  const scope = ids === undefined ? sql`` : sql` and b.student_id = any(${uuidArray(ids)}::uuid[])`;
  const sessionScope = sessionIds ? sql` and b.session_id = any(${uuidArray(sessionIds)}::uuid[])` : sql``;
  return {
    stale: staleDelete(schoolId, sql`${scope}${sessionScope}`, keepOf(computed)),
    sessionRows: chunks(computed.sessions).map((part) => sessionUpsert(schoolId, literalsOf(part, SESSION_TABLE, SESSION_PROPS))),
    studentRows: chunks(computed.students).map((part) => studentUpsert(schoolId, literalsOf(part, STUDENT_TABLE, STUDENT_PROPS))),
  };
}

/** Which of its statements one student's balance writes have: rows of none of their sessions, or no student row, leave one out. */
export interface OneStudentBalanceShape {
  balanceSessionRows: boolean;
  balanceStudentRows: boolean;
}

/**
 * `balanceWrites` of ONE student (a receipt's save), over placeholders named `balance…` of a
 * statement assembled once per shape (`writeStatement`, decision 0086); `schoolId` is the statement's
 * own. The values come from `oneStudentBalanceValues`.
 */
export function oneStudentBalanceSql(p: Record<string, Placeholder>, schoolId: Placeholder, shape: OneStudentBalanceShape): SQL[] {
  return [
    staleDelete(schoolId, sql` and b.student_id = any(${p.balanceStudentIds}::uuid[])`, p.balanceKeep),
    ...(shape.balanceSessionRows ? [sessionUpsert(schoolId, SESSION_TABLE.map((_, c) => p[`balanceSession${c}`]))] : []),
    ...(shape.balanceStudentRows ? [studentUpsert(schoolId, STUDENT_TABLE.map((_, c) => p[`balanceStudent${c}`]))] : []),
  ];
}

/** The shape and placeholders' values of `oneStudentBalanceSql` for a student's computed rows. */
export function oneStudentBalanceValues(studentId: string, computed: ComputedBalances): { shape: OneStudentBalanceShape; values: Record<string, unknown> } {
  if (computed.students.length > 1 || computed.sessions.some((r) => r.studentId !== studentId) || computed.students.some((r) => r.studentId !== studentId)) {
    throw new Error('one student\'s balances hold rows of another student');
  }
  const values: Record<string, unknown> = { balanceStudentIds: uuidArray([studentId]), balanceKeep: keepOf(computed) };
  literalsOf(computed.sessions, SESSION_TABLE, SESSION_PROPS).forEach((literal, c) => (values[`balanceSession${c}`] = literal));
  literalsOf(computed.students, STUDENT_TABLE, STUDENT_PROPS).forEach((literal, c) => (values[`balanceStudent${c}`] = literal));
  return { shape: { balanceSessionRows: computed.sessions.length > 0, balanceStudentRows: computed.students.length > 0 }, values };
}

/** The school's own rows a new student's balance depends on (`balanceInputReads` under the same names). */
export type SchoolBalanceRows = Pick<BalanceInputRows, 'sessions' | 'structures' | 'plans'>;

/**
 * The running balances of students being inserted in this transaction (a bulk import's batch), as
 * data-modifying statements to run beside the insert. A new student's id is new, so nothing in the
 * ledger names them yet (no lines, carried or opening balances, credit or concessions): their
 * inputs are their own rows plus the school's sessions, structures and plans, and reading them back
 * after the insert would only find those same rows (decision 0041). No stale rows to delete either.
 * The result is `computeBalances` over the same inputs a refresh would load, so it equals it.
 */
export function newStudentBalanceWrites(
  schoolId: string,
  school: SchoolBalanceRows,
  students: ReadonlyArray<BalanceStudent & { sessionId: string }>,
): SQL[] {
  if (students.length === 0) return [];
  // new students alike in class, session, bus fee and fees-from month have the same balances but for
  // who they are and their section and roll: computed once per kind in the batch, not per student
  const kindOf = (s: BalanceStudent) => `${s.className}|${s.sessionId}|${s.monthlyBusFeePaise}|${s.feesFromMonth}|${s.status}`;
  const kinds = new Map<string, BalanceStudent & { sessionId: string }>();
  for (const s of students) if (!kinds.has(kindOf(s))) kinds.set(kindOf(s), s);
  const representatives = [...kinds.values()];
  const inputs = balanceInputsFrom({
    ...school,
    balanceStudents: representatives,
    balanceEnrollments: representatives.map((s) => ({ studentId: s.id, sessionId: s.sessionId, className: s.className, section: s.section, rollNumber: s.rollNumber })),
    balanceLines: [],
    balanceCarried: [],
    balanceOpening: [],
    balanceCredit: [],
    balanceConcessions: [],
  });
  const once = computeBalances(inputs);
  const sessionsOf = new Map<string, ComputedBalances['sessions']>();
  for (const row of once.sessions) sessionsOf.set(row.studentId, [...(sessionsOf.get(row.studentId) ?? []), row]);
  const studentOf = new Map(once.students.map((row) => [row.studentId, row]));
  const computed: ComputedBalances = { sessions: [], students: [] };
  for (const s of students) {
    const like = kinds.get(kindOf(s))!;
    for (const row of sessionsOf.get(like.id) ?? []) computed.sessions.push({ ...row, studentId: s.id, section: s.section, rollNumber: s.rollNumber });
    computed.students.push({ ...studentOf.get(like.id)!, studentId: s.id });
  }
  const { sessionRows, studentRows } = balanceWrites(schoolId, students.map((s) => s.id), computed);
  return [...sessionRows, ...studentRows];
}

/**
 * Stores computed rows. A few students' rows (one chunk of each) go in ONE statement, the delete and
 * the upserts as its common tables: they touch different rows (the delete only rows not upserted).
 * A whole school's go chunk by chunk, all in the caller's transaction.
 */
async function writeBalances(db: Db, schoolId: string, ids: StudentSet, computed: ComputedBalances, sessionIds?: readonly string[]): Promise<void> {
  const { stale, sessionRows, studentRows } = balanceWrites(schoolId, ids, computed, sessionIds);
  if (sessionRows.length <= 1 && studentRows.length <= 1) {
    const parts = [stale, ...sessionRows, ...studentRows].map((statement, i) => sql`${sql.identifier(`w${i}`)} as (${statement})`);
    await db.execute(sql`with ${sql.join(parts, sql`, `)} select 1`);
    return;
  }
  await db.execute(stale);
  for (const statement of [...sessionRows, ...studentRows]) await db.execute(statement);
  // a deleted student's rows go with them (cascade); a student row with no student left cannot exist
}
