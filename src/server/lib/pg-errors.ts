/** PostgreSQL error codes, read from errors of either driver (PGlite or node-postgres, possibly wrapped by Drizzle). */
export function pgCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown) => pgCode(error) === '23505';
export const isSerializationFailure = (error: unknown) => pgCode(error) === '40001' || pgCode(error) === '40P01';
export const isForeignKeyViolation = (error: unknown) => pgCode(error) === '23503';
/** Text PostgreSQL cannot store (a NUL byte, an invalid byte sequence): the input's fault, never a 500. */
export const isInvalidText = (error: unknown) => ['22021', '22P05'].includes(pgCode(error) ?? '');
