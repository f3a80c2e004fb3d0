import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** A name or father's name as the duplicate rules compare it (`personKey`): without case, ends or runs of spaces. */
function personKeySql(column: AnyColumn | SQL): SQL {
  return sql`lower(regexp_replace(btrim(${column}), '\\s+', ' ', 'g'))`;
}

/**
 * A student's name, father's name and class as the import's duplicate rule compares them, the
 * database's side of `nameFatherClassKey`. The index `students_school_duplicate_key_idx` is built on
 * this expression and `schoolDuplicatesSql` finds rows by it: both must be written by this function,
 * or PostgreSQL no longer sees that the index answers the query.
 */
export function duplicateKeySql(name: AnyColumn | SQL, fatherName: AnyColumn | SQL, className: AnyColumn | SQL): SQL<string> {
  return sql<string>`(${personKeySql(name)} || '|' || ${personKeySql(fatherName)} || '|' || ${className})`;
}
