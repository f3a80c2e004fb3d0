import { sql, type SQL } from 'drizzle-orm';

/**
 * Membership in a list of ids passed as ONE array parameter (no parameter limit, one plan).
 *
 * Not `column = any($ids::uuid[])`: PostgreSQL hashes `= ANY` only for a constant array, so with a
 * parameter every row is compared with every id in turn. At 60,000 students (180,000 balance rows
 * against 60,000 ids) that ran for over 20 s; a semi-join over `unnest` is hashed and took 175 ms
 * (decision 0041). For one student the planner still walks the index: unnest of a known array is
 * estimated at its length.
 */
export function inIds(column: SQL, ids: readonly string[]): SQL {
  return sql`${column} in (select unnest(${uuidArray(ids)}::uuid[]))`;
}

/** The complement of `inIds`, as an anti-join the planner can hash (NOT IN is hashed only while the list fits in work_mem). */
export function notInIds(column: SQL, ids: readonly string[]): SQL {
  return sql`not exists (select 1 from unnest(${uuidArray(ids)}::uuid[]) as given(id) where given.id = ${column})`;
}

/** A PostgreSQL array literal of ids; ids are uuids we generated, never user text. */
function uuidArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}
