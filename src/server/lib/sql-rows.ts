/**
 * The rows of `db.execute(sql...)`. Both drivers answer with `{ rows }`, but the shared `Db` type
 * cannot say so; the caller names the shape its SQL selects.
 */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
