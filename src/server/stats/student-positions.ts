import { sql, type SQL } from 'drizzle-orm';
import { monthBounds, previousMonthKey } from '../../domain/reports';
import type { Db } from '../db/client';
import { pgCode } from '../lib/pg-errors';
import { executeAndCommit, executePrepared, GENERIC_PLANS, inPipelinedTransaction } from '../lib/prepared';
import { rupeeStringSql } from '../lib/sql-money';
import { rowsOf } from '../lib/sql-rows';
import { classRank, isIncome } from '../reports/sql';
import { idsArray, monthIndex, monthStep, positionsCte, type StudentIds } from './positions';

/**
 * The whole-school figures per student (`student_positions`, decision 0058): the dashboard's cards,
 * the charts' outstanding by class and the defaulters lists read these rows, one narrow row per
 * student, instead of picking every student's position out of the running balances on each read
 * (at 60,000 students that was three statements of 0.1–0.4 s each, after every write).
 *
 * Writes never touch them: triggers mark the students whose inputs changed (migration 0037), and
 * `ensurePositions`, called by every reader first, recomputes the marked rows with the very
 * statement a full build runs, restricted to them. A month or a session change rebuilds the school.
 */

/** The columns of a row, in the order `positionRows` selects them. */
const COLUMNS = [
  'student_id',
  'active',
  'session_id',
  'closed',
  'class_name',
  'section',
  'roll_number',
  'name',
  'phone',
  'class_rank',
  'first_key',
  'start_key',
  'due_months',
  'due_mask',
  'tuition_paise',
  'bus_paise',
  'tuition_mask',
  'bus_mask',
  'monthly_owed',
  'yearly_owed',
  'carried_owed',
  'owed',
  'expected_now',
  'yearly_potential',
  'bus_paid_active',
  'month_paid',
  'paid_last',
  'revenue',
  'month_income',
] as const;

const sessionHolding = (schoolId: string, month: string) =>
  sql`select id from academic_sessions where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${month} and to_char(end_date, 'YYYY-MM') >= ${month}`;

/**
 * Every student's row at `month` (or the named students'), as one SELECT of `COLUMNS`:
 * - the position (ruling 6) of an active student, as `positionsCte` picks it: owed till the month,
 *   its monthly, yearly and carried parts, this month's tuition and bus, the yearly heads' total;
 * - from the running balances of any student: bus fee received in the active session, what tuition
 *   and bus lines brought for this month in every session holding it, and whether the student was
 *   Paid for last month in the session holding it (the active one first): every head expected of
 *   them recorded and at least one;
 * - from the ledger: every live receipt but those paid from credit and opening entries, plus credit
 *   received (ruling 27), and the lines dated this month of live, non-opening receipts.
 */
export function positionRows(schoolId: string, month: string, studentIds?: StudentIds): SQL {
  const lastMonth = previousMonthKey(`${month}-01`);
  const bounds = monthBounds(month);
  const only = (column: SQL) => (studentIds ? sql` and ${column} = any(${idsArray(studentIds)})` : sql``);
  // a few students' lines of the month: found through the students' index. Under a generic plan the
  // planner cannot tell a few ids from many and walked the school's month on the paid_on index
  // instead, 75,000 entries for five students at 60,000 (8-34 ms of every catch-up); `+ 0` keeps it off
  const paidOn = studentIds ? sql`(l.paid_on + 0)` : sql`l.paid_on`;
  const lastMonthBit = (mask: SQL) =>
    sql`(${mask} >> (${monthIndex(sql`${lastMonth}::text`)} - ${monthIndex(sql`lm.first_key`)})) & 1 = 1`;
  return sql`
    with ${positionsCte(schoolId, month, studentIds)},
    cur as (${sessionHolding(schoolId, month)}),
    lm as (
      select id, to_char(start_date, 'YYYY-MM') as first_key from academic_sessions
      where school_id = ${schoolId} and to_char(start_date, 'YYYY-MM') <= ${lastMonth} and to_char(end_date, 'YYYY-MM') >= ${lastMonth}
      order by is_active desc, start_date desc limit 1
    ),
    bal as (
      select p.student_id,
             coalesce(sum(p.bus_paid) filter (where p.session_id = (select id from act)), 0) as bus_paid_active,
             coalesce(sum(${monthStep(sql`p.monthly_paid`, sql`${month}::text`)}) filter (where p.session_id in (select id from cur)), 0) as month_paid,
             coalesce(bool_or(lm.id is not null
               and (${lastMonthBit(sql`p.tuition_mask`)} or ${lastMonthBit(sql`p.bus_mask`)})
               and (${lastMonthBit(sql`p.tuition_mask`)} or p.tuition_paise = 0)
               and (${lastMonthBit(sql`p.bus_mask`)} or p.bus_paise = 0)), false) as paid_last
      from student_session_balances p
      left join lm on lm.id = p.session_id
      where p.school_id = ${schoolId}${only(sql`p.student_id`)}
        and (p.session_id = (select id from act) or p.session_id in (select id from cur) or p.session_id in (select id from lm))
      group by p.student_id
    ),
    rev as (
      select student_id, sum(total_paise) as amount from receipts
      where school_id = ${schoolId}${only(sql`student_id`)} and status = 'live' and payment_mode <> 'credit' and source <> 'opening'
      group by student_id
    ),
    credit as (
      select student_id, sum(amount_paise) as amount from student_credit_entries
      where school_id = ${schoolId}${only(sql`student_id`)} and kind <> 'applied'
      group by student_id
    ),
    income as (
      select l.student_id, sum(l.amount_paise) as amount from receipt_lines l
      where l.school_id = ${schoolId}${only(sql`l.student_id`)} and ${paidOn} between ${bounds.from}::date and ${bounds.to}::date and ${isIncome(schoolId)}
      group by l.student_id
    )
    select s.id as student_id,
           pos.id is not null as active,
           pos.session_id,
           coalesce(pos.closed, false) as closed,
           coalesce(pos.class_name, s.class_name) as class_name,
           coalesce(pos.section, s.section) as section,
           coalesce(pos.roll_number, s.roll_number) as roll_number,
           s.name,
           coalesce(nullif(s.parent_phone, ''), nullif(s.mobile_number, ''), '') as phone,
           ${classRank(sql`coalesce(pos.class_name, s.class_name)`)} as class_rank,
           pos.first_key,
           pos.start_key,
           coalesce(pos.due_months, 0) as due_months,
           ${dueMask} as due_mask,
           coalesce(pos.tuition, 0) as tuition_paise,
           coalesce(pos.bus, 0) as bus_paise,
           coalesce(pos.t_mask, 0) as tuition_mask,
           coalesce(pos.b_mask, 0) as bus_mask,
           coalesce(pos.monthly_owed, 0) as monthly_owed,
           coalesce(pos.yearly_owed, 0) as yearly_owed,
           coalesce(pos.carried_owed, 0) as carried_owed,
           coalesce(pos.owed, 0) as owed,
           coalesce(pos.expected_now, 0) as expected_now,
           case when pos.session_id is not null and not pos.closed then pos.yearly_total else 0 end as yearly_potential,
           coalesce(bal.bus_paid_active, 0) as bus_paid_active,
           coalesce(bal.month_paid, 0) as month_paid,
           coalesce(bal.paid_last, false) and s.status = 'active' as paid_last,
           coalesce(rev.amount, 0) + coalesce(credit.amount, 0) as revenue,
           coalesce(income.amount, 0) as month_income
    from students s
    left join pos on pos.id = s.id
    left join bal on bal.student_id = s.id
    left join rev on rev.student_id = s.id
    left join credit on credit.student_id = s.id
    left join income on income.student_id = s.id
    where s.school_id = ${schoolId}${only(sql`s.id`)}`;
}

/**
 * The due months of a `pos` row with a head expected and nothing recorded, as bits from the session's
 * first month: of the months `start_key` … the horizon (due_months of them), those whose tuition (when
 * the student pays tuition) or bus fee (when they take the bus) has no recorded bit. Bit arithmetic on
 * the row, no set per student (a subquery per row cost 1.7 s of a 60,000-student build). A closed
 * session's months are in its carried balance, not listed. The Pending Fees report writes them as
 * "Apr–Jun 2026 (3)".
 */
const fromIdx = sql`(${monthIndex(sql`pos.start_key`)} - ${monthIndex(sql`pos.first_key`)})`;
const dueMask = sql`case when pos.id is null or pos.closed or pos.first_key is null or pos.due_months <= 0 then 0::bigint
  else ((case when pos.tuition > 0 then ~pos.t_mask else 0::bigint end) | (case when pos.bus > 0 then ~pos.b_mask else 0::bigint end))
     & (case when ${fromIdx} + pos.due_months >= 63 then (-1::bigint) << ${fromIdx}
             else ((1::bigint << pos.due_months) - 1) << ${fromIdx} end) end`;

/**
 * The school's totals of its rows (`school_positions`), each with the aggregate that gives it over a
 * set of rows: the cards' figures. Counts are of active students; the sums are zero on other rows.
 */
export const TOTALS = [
  ['total_students', 'count(*) filter (where active)'],
  ['pending_fees', 'coalesce(sum(owed), 0)'],
  ['pending_students', 'count(*) filter (where active and owed > 0)'],
  ['carried_owed', 'coalesce(sum(carried_owed), 0)'],
  ['expected_now', 'coalesce(sum(expected_now), 0)'],
  ['yearly_potential', 'coalesce(sum(yearly_potential), 0)'],
  ['revenue', 'coalesce(sum(revenue), 0)'],
  ['month_income', 'coalesce(sum(month_income), 0)'],
  ['bus_paid_active', 'coalesce(sum(bus_paid_active), 0)'],
  ['month_paid', 'coalesce(sum(month_paid), 0)'],
  ['paid_last', 'count(*) filter (where paid_last)'],
] as const;
const totalsOf = sql.raw(TOTALS.map(([column, aggregate]) => `${aggregate} as ${column}`).join(', '));
/** `set` clause moving every total by a set of rows `d` (its `totalsOf`), `sign` '+' or '-'. */
const moveTotals = (sign: '+' | '-') => sql.raw(TOTALS.map(([column]) => `${column} = t.${column} ${sign} d.${column}`).join(', '));

/** The school's totals as a statement returns them: one field per `TOTALS` column (counts and sums). */
export type PositionTotals = Readonly<Record<(typeof TOTALS)[number][0], unknown>>;
const totalsColumns = (alias: string) => sql.raw(TOTALS.map(([column]) => `${alias}.${column}`).join(', '));
const totalsOfRow = (row: Record<string, unknown> | undefined): PositionTotals =>
  Object.fromEntries(TOTALS.map(([column]) => [column, row?.[column] ?? null])) as PositionTotals;

/**
 * What a reader learns of the school's rows before it brings them up to date: the month they were
 * built for, whether a student is marked, and the totals as they stand. `positionsStateColumns`
 * selects it over `school_positions p` (left-joined: a school never built has no row), so a reader
 * can read it with figures of its own in one statement (the dashboard's cards, with their session
 * and expenses) and hand it to `ensurePositions`.
 */
export interface PositionsState {
  month_key: string | null;
  marked: boolean;
  totals: PositionTotals;
}
export const positionsStateColumns = (schoolId: string): SQL =>
  sql`p.month_key, exists (select 1 from student_position_marks where school_id = ${schoolId}) as marked, ${totalsColumns('p')}`;
export const positionsStateOf = (row: Record<string, unknown> | undefined): PositionsState => ({
  month_key: (row?.month_key as string | null | undefined) ?? null,
  marked: row?.marked === true,
  totals: totalsOfRow(row),
});

/** Past this many marked students, a rebuild of the whole school is cheaper than a lookup per student. */
const REBUILD_OVER = 10_000;

/** The advisory lock that lets one reader at a time bring a school's rows up to date. */
const positionsLockKey = (schoolId: string) => sql`hashtextextended(${`positions-school:${schoolId}`}, 0)`;
/** A reader's statement that waits for that lock (the keeper tries it instead, `catchUp`). */
const waitForLock = (schoolId: string, settings?: SQL) => sql`select pg_advisory_xact_lock(${positionsLockKey(schoolId)}), true as locked${settings ? sql`, ${settings}` : sql``}`;

/**
 * Set by the first statement of each one-trip catch-up of marked students (`catchUpMarked`,
 * `readAfterCatchUp`): the statements that move their rows run their generic plans. Under
 * PostgreSQL's own choice ('auto') `addRows`, 16 KB of SQL, was planned for its values on each
 * connection's first five runs at least, 5-25 ms each against 1 ms to run it (decision 0088); the
 * students it moves come from a setting, which no plan sees, and every other condition is an
 * equality on the school.
 */
const CATCH_UP_PLANS = GENERIC_PLANS;

/** The mark a change to the school's sessions leaves (migration 0037): every row is rebuilt. */
export const WHOLE_SCHOOL = '00000000-0000-0000-0000-000000000000';

/**
 * A row's line of the defaulters list (Pending Fees) as JSON text, in two parts around the months due
 * and today's fine, which a build adds: written with the row, so a build after a change formats the
 * students who changed and reads the rest as text (decision 0061). to_json escapes the text fields.
 */
const listHead = (r: string) =>
  sql.raw(
    `'{"className":' || to_json(${r}.class_name)::text || ',"section":' || to_json(${r}.section)::text || ',"rollNumber":' || ${r}.roll_number::text` +
      ` || ',"name":' || to_json(${r}.name)::text || ',"phone":' || to_json(${r}.phone)::text`,
  );
const listTail = (r: string) =>
  sql`',"monthly":"' || ${rupeeStringSql(sql.raw(`${r}.monthly_owed`))} || '","yearly":"' || ${rupeeStringSql(sql.raw(`${r}.yearly_owed`))}
    || '","previous":"' || ${rupeeStringSql(sql.raw(`${r}.carried_owed`))} || '","total":"' || ${rupeeStringSql(sql.raw(`${r}.owed`))} || '"'`;

/** What verify-ledger compares: every column and the list's text. */
const VERIFIED = [...COLUMNS, 'list_head', 'list_tail'] as const;

const insertRows = (schoolId: string, month: string, studentIds?: StudentIds) => sql`
  insert into student_positions (school_id, ${sql.raw(COLUMNS.join(', '))}, list_head, list_tail)
  select ${schoolId}::uuid, r.*, ${listHead('r')}, ${listTail('r')} from (${positionRows(schoolId, month, studentIds)}) r`;

/**
 * Deletes the school's marks that no writer in flight holds (SKIP LOCKED) and returns their students.
 * The rows are locked in one pass and deleted by their row addresses (a TID scan): written as
 * `student_id in (select … for update skip locked)`, PostgreSQL planned a nested loop that scanned
 * every mark again for each mark whenever the table's statistics were from when it was small, as
 * they are right after a write that marks thousands of students (a rollover, an import, a class's fee
 * change): 20,000 marks took 46 s against 18 ms, and 64,000 (a 60,000-student school's rollover) held
 * the marks, and the saves waiting on them, for minutes. The addresses come from the school's rows alone.
 */
export const clearMarksSql = (schoolId: string, when: SQL = sql`true`): SQL => sql`
  delete from student_position_marks
  where ctid = any(array(select ctid from student_position_marks where school_id = ${schoolId} and ${when} for update skip locked))
  returning student_id`;

/**
 * Removes the students' rows and takes what they were off the school's totals. With no student it
 * writes nothing, so a catch-up that finds none (a read with nothing marked, `readAfterCatchUp`)
 * neither rewrites nor locks the totals row.
 */
const removeRows = (schoolId: string, ids: StudentIds) => sql`
  with old as (delete from student_positions where school_id = ${schoolId} and student_id = any(${idsArray(ids)}) returning *)
  update school_positions t set ${moveTotals('-')} from (select ${totalsOf} from old having count(*) > 0) d where t.school_id = ${schoolId}`;

/**
 * Writes the students' rows as they now are and adds them to the school's totals, which it returns:
 * as moved, or as they stand when there was no student (then it writes nothing, as `removeRows`).
 */
const addRows = (schoolId: string, month: string, ids: StudentIds) => sql`
  with new as (${insertRows(schoolId, month, ids)} returning *),
  moved as (
    update school_positions t set ${moveTotals('+')} from (select ${totalsOf} from new having count(*) > 0) d where t.school_id = ${schoolId}
    returning ${totalsColumns('t')}
  )
  select * from moved
  union all
  select ${totalsColumns('t')} from school_positions t where t.school_id = ${schoolId} and not exists (select 1 from moved)`;

/**
 * The students whose marks `takeMarksSql` took, as the later statements of its transaction read them:
 * a transaction-local setting, read once per statement (a scalar subquery, not a cast per row; the
 * outer cast, a no-op, makes `any(…)` take it as an array, not as the rows of a subquery).
 */
const TAKEN_SETTING = 'ledger.position_ids';
const takenIds = sql.raw(`(select current_setting('${TAKEN_SETTING}')::uuid[])::uuid[]`);

/**
 * The first statement of a one-trip catch-up (`catchUpMarked`): when the school's rows are of `month`,
 * no change to its sessions is marked and at most `REBUILD_OVER` students are, it clears the marks no
 * writer in flight holds and keeps every marked student of its snapshot (cleared and held, as the slow
 * path recomputes both) in `TAKEN_SETTING`. Otherwise it clears nothing and says so (`ok` false):
 * the later statements then find no student (they move the totals by nothing) and the caller builds
 * the school on the slow path.
 */
const takeMarksSql = (schoolId: string, month: string, locked: SQL = sql`true`) => sql`
  with gate as (
    select t.month_key = ${month}
       and not exists (select 1 from student_position_marks m where m.school_id = ${schoolId} and m.student_id = ${WHOLE_SCHOOL}::uuid)
       and (select count(*) from student_position_marks m where m.school_id = ${schoolId}) <= ${REBUILD_OVER} as ok
    from school_positions t where t.school_id = ${schoolId}
  ),
  cleared as (${clearMarksSql(schoolId, sql`coalesce((select ok from gate), false) and ${locked}`)})
  select coalesce((select ok from gate), false) as ok,
         set_config(${TAKEN_SETTING}, (
           select coalesce(array_agg(distinct m.student_id), '{}')::text from student_position_marks m
           where m.school_id = ${schoolId} and coalesce((select ok from gate), false) and ${locked}), true) as taken`;

/**
 * Makes the school's `student_positions` those of `month` with every write committed so far in
 * view: nothing to do when the rows are of that month and no student is marked (one small read);
 * the marked students' rows recomputed otherwise, or every row on a new month or session change.
 *
 * The marks are cleared in a statement of their own BEFORE the rows are recomputed, so the
 * recompute, a later statement, reads every write whose mark it cleared. A mark a writer still in
 * flight holds is passed over (SKIP LOCKED), never waited for, so a reader and a writer that marks
 * students one after another cannot deadlock; its student is recomputed all the same (an earlier,
 * committed write may have left the mark) and the mark stays for the next reader, who will see the
 * write in flight once it commits.
 */
export async function ensurePositions(db: Db, { schoolId, month }: { schoolId: string; month: string }, known?: PositionsState): Promise<PositionTotals> {
  const caughtUp = (await catchUp(db, schoolId, month, known, { skipIfBusy: false }))!;
  // a school's rows all replaced: fresh statistics, or the defaulters' plan may sort 58,000 rows in
  // temporary files instead of reading them in order off their index (131 against 42 ms at 60,000
  // students on a table the planner had never seen). About 0.2 s, after the build has committed;
  // skipped rather than waited for while another analyze (autovacuum's, another school's) holds the table
  if (caughtUp.rebuilt) await freshStatistics(db);
  return caughtUp.totals;
}

/** A school whose rows another reader is bringing up to date, passed over by a caller that does not wait. */
class SchoolBusy extends Error {}

/**
 * `ensurePositions`'s work. With `skipIfBusy`, a school whose lock another reader holds is left to
 * it (null) instead of waited for: the background builder (decision 0071) never queues behind a
 * clerk's request or another process's builder.
 */
async function catchUp(
  db: Db,
  schoolId: string,
  month: string,
  known: PositionsState | undefined,
  { skipIfBusy }: { skipIfBusy: boolean },
): Promise<{ rebuilt: boolean; totals: PositionTotals } | null> {
  const state =
    known ??
    positionsStateOf(
      rowsOf<Record<string, unknown>>(
        await db.execute(sql`select ${positionsStateColumns(schoolId)} from (select 1) one left join school_positions p on p.school_id = ${schoolId}`),
      )[0],
    );
  if (state.month_key === month && !state.marked) return { rebuilt: false, totals: state.totals };
  // students marked on rows of this month: one round trip (a reader's usual catch-up after a write)
  if (state.month_key === month && !skipIfBusy) {
    const totals = await catchUpMarked(db, schoolId, month);
    if (totals) return { rebuilt: false, totals };
  }
  // the slow path: a pipelined transaction (decision 0054), its statements sent as they are made
  // (executePrepared, not Drizzle's lazy execute): the lock and the three reads behind it go out in one
  // write and come back in one round trip, and the whole school's build (or the incremental update,
  // when another reader built it meanwhile) follows. A lock not taken (skipIfBusy) rolls the marks'
  // clearing back with the rest.
  const lock = skipIfBusy
    ? sql`select pg_try_advisory_xact_lock(${positionsLockKey(schoolId)}) as locked`
    : waitForLock(schoolId);
  try {
    return await inPipelinedTransaction(db, async (tx): Promise<{ rebuilt: boolean; totals: PositionTotals }> => {
      const [lockRows, builtRows, clearedRows, heldRows] = await Promise.all([
        executePrepared(tx, lock),
        executePrepared(tx, sql`select month_key, ${totalsColumns('t')} from school_positions t where school_id = ${schoolId}`),
        executePrepared(tx, clearMarksSql(schoolId)),
        executePrepared(tx, sql`select student_id from student_position_marks where school_id = ${schoolId}`),
      ]);
      if (rowsOf<{ locked: boolean }>(lockRows)[0]?.locked !== true) throw new SchoolBusy();
      const [built] = rowsOf<Record<string, unknown> & { month_key: string | null }>(builtRows);
      const ids = [...new Set([...rowsOf<{ student_id: string }>(clearedRows), ...rowsOf<{ student_id: string }>(heldRows)].map((r) => r.student_id))];
      if (built?.month_key === month && ids.length <= REBUILD_OVER && !ids.includes(WHOLE_SCHOOL)) {
        // read under the lock: nobody moved them since
        if (ids.length === 0) return { rebuilt: false, totals: totalsOfRow(built) };
        // the totals lose what the students' rows were and gain what they are now: two statements,
        // so the new rows are written once the old ones are gone; the second carries the COMMIT and
        // returns the totals as they now are
        // (planned for these students each time: unlike the one-trip catch-ups, the ids are values
        // the plan sees, a few or thousands, on a path that runs seldom)
        const [, moved] = await Promise.all([executePrepared(tx, removeRows(schoolId, ids)), executeAndCommit(tx, addRows(schoolId, month, ids))]);
        return { rebuilt: false, totals: totalsOfRow(rowsOf<Record<string, unknown>>(moved)[0]) };
      }
      // the whole school: its per-student sums hashed in memory (a school's 68,000 receipts' groups do not
      // fit the default 4 MB, and the sorted plan PostgreSQL chose instead read the receipts in index order: 1.6 s)
      await tx.execute(sql`set local work_mem = '64MB'`);
      await tx.execute(sql`delete from student_positions where school_id = ${schoolId}`);
      await tx.execute(insertRows(schoolId, month));
      const totals = sql.raw(TOTALS.map(([column]) => column).join(', '));
      const saved = await tx.execute(sql`
        insert into school_positions as t (school_id, month_key, built_at, ${totals})
        select ${schoolId}::uuid, ${month}, now(), ${totalsOf} from student_positions where school_id = ${schoolId}
        on conflict (school_id) do update set month_key = excluded.month_key, built_at = excluded.built_at,
          ${sql.raw(TOTALS.map(([column]) => `${column} = excluded.${column}`).join(', '))}
        returning ${totalsColumns('t')}`);
      return { rebuilt: true, totals: totalsOfRow(rowsOf<Record<string, unknown>>(saved)[0]) };
    });
  } catch (error) {
    if (error instanceof SchoolBusy) return null;
    throw error;
  }
}

/** The setting that says whether `readAfterCatchUp` took the school's lock, read by `takeMarksSql`. */
const LOCKED_SETTING = 'ledger.positions_locked';

/**
 * A reader's statement (`read`, which selects over `school_positions`) run after the school's rows of
 * `month` are brought up to date, in ONE round trip on one connection (decision 0080): a pipelined
 * transaction whose first statement waits for the school's lock only when a student is marked, then
 * takes the marks, moves the rows and the totals, and runs `read`, which carries the COMMIT and so
 * reads the totals as the catch-up left them. With nothing marked it takes no lock and writes
 * nothing. A change to the school's sessions, too many marks or rows of another month are left to
 * the slow path: `caughtUp` is false and the caller calls `ensurePositions`, which finds what is
 * still to do. Before, the dashboard's cards read first and caught up in a second transaction: two
 * checkouts of a pooled connection, each a wait in the pool's queue under a load.
 *
 * Every statement, `read` too, runs its generic plan (`CATCH_UP_PLANS`): `read` must be a statement
 * whose conditions are equalities on the school, or ranges taken from rows it reads, not from values.
 *
 * `reading` is called once the transaction holds its connection, just before its statements are sent.
 *
 * Marks a writer commits after the first statement looked are left for the next reader (the lock
 * was not taken, so none is taken): that write was not done when this read began.
 */
export async function readAfterCatchUp(
  db: Db,
  schoolId: string,
  month: string,
  read: SQL,
  reading: () => void = () => undefined,
): Promise<{ caughtUp: boolean; rows: Record<string, unknown>[] }> {
  return inPipelinedTransaction(db, async (tx) => {
    // the connection is held and nothing is sent yet (FigureCache's `overlap`, decision 0105)
    reading();
    const [, taken, , , rows] = await Promise.all([
      executePrepared(
        tx,
        sql`select set_config(${LOCKED_SETTING}, (case when exists (select 1 from student_position_marks where school_id = ${schoolId})
              then pg_advisory_xact_lock(${positionsLockKey(schoolId)}) is not null else false end)::text, true) as locked, ${CATCH_UP_PLANS}`,
      ),
      executePrepared(tx, takeMarksSql(schoolId, month, sql.raw(`current_setting('${LOCKED_SETTING}') = 'true'`))),
      executePrepared(tx, removeRows(schoolId, takenIds)),
      executePrepared(tx, addRows(schoolId, month, takenIds)),
      executeAndCommit(tx, read),
    ]);
    return { caughtUp: rowsOf<{ ok: boolean }>(taken)[0]?.ok === true, rows: rowsOf<Record<string, unknown>>(rows) };
  });
}

/**
 * The marked students' rows of a school built for `month` recomputed in ONE round trip: the lock, the
 * marks taken (`takeMarksSql`), the students' old rows removed and their new rows added, and the
 * COMMIT, sent in one write. The lock is held for PostgreSQL's work alone. In the two trips before it
 * (decision 0072), it was also held while the app's event loop read the first answer and sent the
 * rest, and the school's other readers queued on it meanwhile (the mixed load did not get measurably
 * faster on two full cores: its wait is for CPU). The ids pass between the statements inside
 * PostgreSQL, never through the app. null: the school needs the slow path (another month, a change
 * to its sessions, too many marks), and no mark was cleared.
 */
async function catchUpMarked(db: Db, schoolId: string, month: string): Promise<PositionTotals | null> {
  return inPipelinedTransaction(db, async (tx) => {
    const [, taken, , added] = await Promise.all([
      executePrepared(tx, waitForLock(schoolId, CATCH_UP_PLANS)),
      executePrepared(tx, takeMarksSql(schoolId, month)),
      executePrepared(tx, removeRows(schoolId, takenIds)),
      executeAndCommit(tx, addRows(schoolId, month, takenIds)),
    ]);
    return rowsOf<{ ok: boolean }>(taken)[0]?.ok === true ? totalsOfRow(rowsOf<Record<string, unknown>>(added)[0]) : null;
  });
}

/**
 * The schools whose next reader would rebuild every row for `month`: built for another month, or
 * marked whole by a change to their sessions. A school never built is left to its first reader: it is
 * new (a few students, built in milliseconds) or being loaded right now (an import), when a build
 * would read it on statistics from before the load and hold up the load's writes (decision 0071).
 */
export const staleSchoolsSql = (month: string): SQL => sql`
  select p.school_id from school_positions p
  where p.month_key is distinct from ${month}
     or exists (select 1 from student_position_marks m where m.school_id = p.school_id and m.student_id = ${WHOLE_SCHOOL}::uuid)
  order by p.school_id`;

export interface MonthBuild {
  /** schools whose every row was built */
  built: string[];
  /** schools a reader or another process was bringing up to date, left to it */
  busy: string[];
}

/**
 * Builds, one school after another, the rows a school's first reader of `month` would otherwise
 * build inside a clerk's request (decision 0071). A school that a reader holds is passed over, not
 * waited for; `stop` is asked between schools. The table's statistics are refreshed once at the end.
 */
export async function buildStalePositions(db: Db, month: string, stop: () => boolean = () => false): Promise<MonthBuild> {
  const schools = rowsOf<{ school_id: string }>(await db.execute(staleSchoolsSql(month))).map((r) => r.school_id);
  const result: MonthBuild = { built: [], busy: [] };
  for (const schoolId of schools) {
    if (stop()) break;
    const caughtUp = await catchUp(db, schoolId, month, undefined, { skipIfBusy: true });
    if (!caughtUp) result.busy.push(schoolId);
    else if (caughtUp.rebuilt) result.built.push(schoolId);
  }
  if (result.built.length > 0) await freshStatistics(db);
  return result;
}

async function freshStatistics(db: Db): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local lock_timeout = '200ms'`);
      await tx.execute(sql`analyze student_positions`);
      // inside a caller's transaction this is a savepoint, whose setting would outlive it
      await tx.execute(sql`set local lock_timeout to default`);
    });
  } catch (error) {
    // lock_not_available: the table's statistics are being refreshed by someone else anyway
    if (pgCode(error) !== '55P03') throw error;
  }
}

export interface PositionDifference {
  schoolId: string;
  studentId: string;
  field: string;
  stored: string;
  recomputed: string;
}

/**
 * verify-ledger's check of these rows: brought up to date as a reader would, then compared field by
 * field with a fresh computation at the same month. A difference means a write changed an input
 * without marking the student (a table the triggers do not cover).
 */
export async function verifySchoolPositions(db: Db, schoolId: string, month: string): Promise<{ rows: number; differences: PositionDifference[] }> {
  await ensurePositions(db, { schoolId, month });
  const [stored, fresh] = await Promise.all([
    db.execute(sql`select ${sql.raw(VERIFIED.join(', '))} from student_positions where school_id = ${schoolId}`),
    db.execute(sql`select r.*, ${listHead('r')} as list_head, ${listTail('r')} as list_tail from (${positionRows(schoolId, month)}) r`),
  ]);
  const key = (rows: unknown) => new Map(rowsOf<Record<string, unknown>>(rows).map((r) => [String(r.student_id), r]));
  const a = key(stored);
  const b = key(fresh);
  const differences: PositionDifference[] = [];
  for (const studentId of new Set([...a.keys(), ...b.keys()])) {
    const s = a.get(studentId);
    const r = b.get(studentId);
    if (!s || !r) {
      differences.push({ schoolId, studentId, field: 'row', stored: s ? 'present' : '(missing)', recomputed: r ? 'present' : '(missing)' });
      continue;
    }
    for (const field of VERIFIED) {
      const x = s[field] === null || s[field] === undefined ? '' : String(s[field]);
      const y = r[field] === null || r[field] === undefined ? '' : String(r[field]);
      if (x !== y) differences.push({ schoolId, studentId, field, stored: x, recomputed: y });
    }
  }
  // and the school's totals, moved row by row, equal the sums of the rows
  const [totals] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select ${sql.raw(TOTALS.map(([column]) => `t.${column}`).join(', '))}, ${sql.raw(TOTALS.map(([column, aggregate]) => `(select ${aggregate} from student_positions where school_id = t.school_id) as sum_${column}`).join(', '))}
      from school_positions t where t.school_id = ${schoolId}`),
  );
  for (const [column] of TOTALS) {
    if (totals && String(totals[column]) !== String(totals[`sum_${column}`])) {
      differences.push({ schoolId, studentId: '-', field: `totals.${column}`, stored: String(totals[column]), recomputed: String(totals[`sum_${column}`]) });
    }
  }
  return { rows: b.size, differences };
}

/**
 * A common table `pos` over the school's stored rows (brought up to date first with
 * `ensurePositions`), one row per active student, with the figures `positionsCte`'s `pos` gives under
 * the same names (id, session_id, class_name, section, roll_number, closed, first_key, start_key,
 * due_months, tuition, bus, t_mask, b_mask, monthly_owed, yearly_owed, carried_owed, owed) and the
 * list's own: name, phone, class_rank, due_mask. The defaulters lists read it instead of computing
 * every student's position again; in class order (class_rank, section, roll_number, name) the owing
 * ones come straight off `student_positions_owing_idx`.
 */
export const storedPositionsCte = (schoolId: string): SQL => sql`
  pos as (
    select ps.student_id as id, ps.session_id, ps.name, ps.phone, ps.class_rank,
           ps.class_name, ps.section, ps.roll_number, ps.closed, ps.first_key, ps.start_key, ps.due_months, ps.due_mask,
           ps.tuition_paise as tuition, ps.bus_paise as bus, ps.tuition_mask as t_mask, ps.bus_mask as b_mask,
           ps.monthly_owed, ps.yearly_owed, ps.carried_owed, ps.owed
    from student_positions ps
    where ps.school_id = ${schoolId} and ps.active
  )`;
