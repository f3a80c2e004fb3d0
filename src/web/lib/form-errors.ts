import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toast } from '@/web/components/toaster';
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

/** The text of the server's answer (`error`), when the request reached the server and it gave one. */
export function serverMessage(error: unknown): string | null {
  return error instanceof ApiError && typeof error.body.error === 'string' ? error.body.error : null;
}

/** The first message of a failed validation, and the field it belongs to. */
export function firstError<T extends FieldValues>(errors: FieldErrors<T>): { field: keyof T & string; message: string } | null {
  for (const [field, error] of Object.entries(errors)) {
    if (error && typeof error.message === 'string' && error.message) return { field: field as keyof T & string, message: error.message };
  }
  return null;
}

/** react-hook-form's invalid handler of every dialog: the first message as a Validation Error toast. */
export function toastFirstError<T extends FieldValues>(errors: FieldErrors<T>): void {
  const first = firstError(errors);
  if (first) toast.error({ title: 'Validation Error', description: first.message });
}
