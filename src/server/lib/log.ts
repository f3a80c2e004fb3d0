import type { FastifyRequest } from 'fastify';
import { pgCode } from './pg-errors';

/**
 * What the log may hold of a request and of an error. Query strings carry searches (a student's
 * name), and a failed SQL statement carries its parameters (names, phone numbers, Aadhaar): neither
 * is written. Registered as the logger's serializers (app.ts), so every `log.error({ err })` of
 * every area goes through them.
 */

/** The request line without its query string; the route's pattern when it matched one. */
export function requestForLog(request: FastifyRequest) {
  const path = (request.url ?? '').split('?')[0];
  return {
    method: request.method,
    url: path,
    route: request.routeOptions?.url,
    remoteAddress: request.ip,
  };
}

/** Quoted values in a database message ('invalid input syntax for type uuid: "…"') are data. */
const withoutQuotedValues = (message: string) => message.replace(/"[^"]*"/g, '"…"');
/** Drizzle's "Failed query: <sql>\nparams: <values>" keeps only its first line, without the values. */
const firstLine = (message: string) => (message.split('\n')[0] ?? '').replace(/\s*params:.*$/, '');

interface DbErrorFields {
  code?: string;
  message?: string;
  table?: string;
  column?: string;
  constraint?: string;
  routine?: string;
}

/** The innermost error that carries a PostgreSQL code (the driver's), or undefined. */
function databaseCause(error: unknown): DbErrorFields | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return current as DbErrorFields;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export function errorForLog(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: 'a non-error value was thrown', stack: '' };
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const db = databaseCause(error);
  if (db) {
    return {
      type: error.constructor.name,
      code: pgCode(error),
      message: withoutQuotedValues(String(db.message ?? '')),
      table: db.table,
      column: db.column,
      constraint: db.constraint,
      routine: db.routine,
      stack: frames.join('\n'),
    };
  }
  const message = firstLine(error.message);
  const code = (error as { code?: unknown }).code;
  return {
    type: error.constructor.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: /^Failed query:/.test(message) ? 'Failed query (statement and parameters not logged)' : message,
    stack: [`${error.constructor.name}: ${message}`, ...frames].join('\n'),
  };
}
