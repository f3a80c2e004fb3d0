import { z } from 'zod';

/**
 * Text a person can type. C0 control characters (NUL, escape, backspace…) and DEL are never part of
 * a name, an address or a note: PostgreSQL refuses NUL in text outright, and the others only hide
 * what a field really holds (in a receipt, a CSV, the audit log). Tab and line breaks are allowed
 * where a text may run over several lines (addresses, reasons, remarks); one-line fields refuse
 * them too.
 *
 * Every input of the API is checked against `CONTROL_CHARACTERS` at the edge (the validator of every
 * route, src/server/lib/validation.ts); `oneLine` is for the fields that are names or labels.
 */

/** Control characters no text field accepts: C0 except tab, line feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Every control character, tab and line breaks included: names and other one-line fields. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const ONE_LINE_CONTROL_CHARACTERS = /[\u0000-\u001F\u007F]/;

export const CONTROL_CHARACTER_MESSAGE = 'must not contain control characters (such as NUL)';

/** "Father name must not contain control characters (such as NUL)" for `students.3.fatherName`. */
export function controlCharacterMessage(field: string): string {
  const key = field.split('.').filter((part) => !/^\d+$/.test(part)).pop() || 'Text';
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${CONTROL_CHARACTER_MESSAGE}`;
}

/**
 * The first string in a value (an input body, a query) holding a control character, as a dotted
 * path (`students.3.name`, `` for the value itself), or null when every string is clean. Keys are
 * checked as well as values.
 */
export function findControlCharacter(value: unknown, at = '', depth = 0): string | null {
  if (typeof value === 'string') return CONTROL_CHARACTERS.test(value) ? at : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControlCharacter(value[i], at ? `${at}.${i}` : String(i), depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  if (value instanceof Date) return null;
  for (const [key, child] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (CONTROL_CHARACTERS.test(key)) return path;
    const found = findControlCharacter(child, path, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** A one-line text field (names, labels): no control characters, no tabs or line breaks. */
export const oneLine = <T extends z.ZodString>(schema: T, label: string) =>
  schema.refine((v) => !ONE_LINE_CONTROL_CHARACTERS.test(v), `${label} must be one line without control characters`);
