import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors';

/** A webhook body: the exact bytes the signature covers, and the parsed JSON. */
export interface RawJsonBody {
  raw: string;
  json: unknown;
}

/**
 * Makes JSON bodies of this plugin's routes arrive as `{ raw, json }`: a webhook's signature is
 * computed over the bytes as sent, which re-serialising the parsed body would not reproduce.
 * Scoped to the plugin it is called in (Fastify encapsulation), so other routes parse as usual.
 */
export function parseJsonKeepingRaw(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body, done) => {
    try {
      done(null, { raw: body as string, json: JSON.parse(body as string) as unknown } satisfies RawJsonBody);
    } catch {
      done(badRequest('The request body is not valid JSON'), undefined);
    }
  });
}
