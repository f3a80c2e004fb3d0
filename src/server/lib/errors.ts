import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { CONTROL_CHARACTER_MESSAGE } from '../../domain/text';
import { isInvalidText } from './pg-errors';

/**
 * An error whose message is safe to show to a person. Anything else that reaches the handler is
 * logged and answered with a generic 500, so no internal detail leaks.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message = 'Authentication required', extra?: Record<string, unknown>) =>
  new HttpError(401, message, extra);
export const forbidden = (message: string, extra?: Record<string, unknown>) => new HttpError(403, message, extra);
/** A row of another school is "not found", never "forbidden": that would confirm it exists. */
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new HttpError(409, message, extra);

/** The largest request body of any route but the bulk student import (which has its own). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
export const BODY_TOO_LARGE = 'The request is larger than 1 MB. Send less at a time.';

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      const wait = error.extra.retryAfterSeconds;
      if (error.statusCode === 429 && typeof wait === 'number') reply.header('retry-after', String(wait));
      return reply.status(error.statusCode).send({ error: error.message, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const key = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        fields[key] ??= issue.message ?? 'Invalid value';
      }
      const first = Object.values(fields)[0] ?? 'Invalid request';
      return reply.status(400).send({ error: first, fields });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.' });
    }
    // a last line behind the validator of every route (lib/validation.ts): text the database cannot store
    if (isInvalidText(error)) {
      return reply.status(400).send({ error: `Text ${CONTROL_CHARACTER_MESSAGE}` });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The request body is not valid JSON'
          : error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? BODY_TOO_LARGE
            : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
              ? 'Unsupported content type'
              : status === 429
                ? error.message
                : 'Invalid request';
      return reply.status(status).send({ error: message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });
}

export function apiNotFound(request: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ error: `No route for ${request.method} ${request.url.split('?')[0]}` });
}
