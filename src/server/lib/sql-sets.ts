import { sql, type SQL } from 'drizzle-orm';

/**
 * Membership in a list of ids passed as ONE array parameter: no parameter limit (drizzle's inArray
 * binds one per id and PostgreSQL refuses more than 65,535), one plan.
 *
 * A semi-join over `unnest` is hashed when the planner believes the rows it meets are many; with
 * statistics that say a table is empty it may loop over the list for every row instead (the stale-row
 * delete of `balances/refresh.ts` no longer joins for that reason). `column = any($ids)` is hashed
 * when the planner sees the array as a constant (node-postgres' unnamed statements do); under a
 * generic plan it is searched linearly for every row (decision 0041). For one student the planner
 * still walks the index.
 */
export function inIds(column: SQL, ids: readonly string[]): SQL {
  return sql`${column} in (select unnest(${uuidArray(ids)}::uuid[]))`;
}

/** The complement of `inIds`, as an anti-join the planner can hash (NOT IN is hashed only while the list fits in work_mem). */
export function notInIds(column: SQL, ids: readonly string[]): SQL {
  return sql`not exists (select 1 from unnest(${uuidArray(ids)}::uuid[]) as given(id) where given.id = ${column})`;
}

/** A PostgreSQL array literal of ids, sent as a parameter (never spliced into the SQL text). */
export function uuidArray(ids: readonly string[]): string {
  return `{${ids.join(',')}}`;
}
