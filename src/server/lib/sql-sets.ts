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

/** A column of `rowsTable`: its name and its PostgreSQL type as a cast spells it (`bigint`, `text`, `bigint[]`, `timestamp with time zone`). */
export type SetColumn = readonly [name: string, type: string];

/**
 * Many rows as a table `x` for one statement, sent as ONE array parameter per column:
 * `unnest($1::uuid[], $2::text[], …)`. A column of an array type travels as a text array of its
 * values' own literals and is cast back row by row (`unnest` would flatten a two-dimensional array).
 *
 * This replaced a JSON array of objects read with `jsonb_to_recordset`: PostgreSQL parsed 5,000
 * running-balance rows (45 columns, ten of them arrays) from JSON in 350–550 ms and from arrays in
 * about 100 ms, and the arrays are less than half the bytes, since no name travels per value
 * (decision 0050). Values are sent as parameters, never spliced into the SQL text.
 */
export function rowsTable(columns: ReadonlyArray<SetColumn>, rows: ReadonlyArray<ReadonlyArray<unknown>>): SQL {
  return rowsTableOf(columns, rowsLiterals(columns, rows));
}

/** The array literals `rowsTable` sends for `rows`, one per column: its parameters' values. */
export function rowsLiterals(columns: ReadonlyArray<SetColumn>, rows: ReadonlyArray<ReadonlyArray<unknown>>): string[] {
  return columns.map(([, type], c) => {
    const nested = type.endsWith('[]');
    return `{${rows.map((row) => element(nested ? innerArray(row[c]) : row[c])).join(',')}}`;
  });
}

/**
 * `rowsTable` over one parameter per column as given: the literals of `rowsLiterals`, or a placeholder
 * for each (a statement assembled once, `writeStatement`).
 */
export function rowsTableOf(columns: ReadonlyArray<SetColumn>, literals: ReadonlyArray<unknown>): SQL {
  const params = columns.map(([, type], c) => sql`${literals[c]}::${sql.raw(type.endsWith('[]') ? 'text' : type)}[]`);
  const picks = columns.map(([name, type], c) => `u.c${c}${type.endsWith('[]') ? `::${type}` : ''} as ${name}`).join(', ');
  const aliases = columns.map((_, c) => `c${c}`).join(', ');
  return sql`(select ${sql.raw(picks)} from unnest(${sql.join(params, sql`, `)}) as u(${sql.raw(aliases)})) as x`;
}

/** One value inside an array literal: NULL, a number or boolean as is, anything else quoted. */
function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/** An array value as its own literal (to travel as one text element), or null. */
function innerArray(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw new TypeError('an array column was given a value that is not an array');
  return `{${value.map(element).join(',')}}`;
}
