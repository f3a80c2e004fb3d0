import { ApiError } from './request';

/**
 * The server's reason for refusing a request, when it gave one a person can act on (a 4xx answer);
 * otherwise the screen's own fallback text. 5xx and network failures never show server text.
 */
export function refusalMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message) return error.message;
  return fallback;
}

/** The per-field messages of a 400/409 answer (`fields`), limited to the fields the form has. */
export function serverFieldErrors<K extends string>(error: unknown, names: readonly K[]): [K, string][] {
  if (!(error instanceof ApiError)) return [];
  const fields = error.fields;
  return names.filter((n) => typeof fields[n] === 'string' && fields[n] !== '').map((n) => [n, fields[n]!]);
}
