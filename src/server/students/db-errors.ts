/** The name of the constraint or unique index a database error names (either driver, possibly wrapped by Drizzle). */
export function constraintOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const name = (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string' && name) return name;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A row still names the one being deleted (PostgreSQL 23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if ((current as { code?: unknown }).code === '23503') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
