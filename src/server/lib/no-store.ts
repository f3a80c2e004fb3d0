import type { FastifyInstance } from 'fastify';

/**
 * Answers of the API are a school's data (fee status, names, tokens): no browser cache, proxy or
 * shared computer may keep a copy (`Cache-Control: no-store`). A route that decides its own caching
 * (the built web app, downloads) keeps its header.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
