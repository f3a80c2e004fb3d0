import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { schoolDataVersions } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';

/**
 * When a school's data last changed, so whole-school figures (stats, charts) can be computed once
 * and served again until something changes (docs/decisions/0007-report-queries.md).
 *
 * Every successful write a school makes through the API raises its counter before the answer is
 * sent (so the next read already sees it): one single-row update after the write's own transaction
 * has committed, so it cannot deadlock with it. Writes
 * that do not come through a school's session (the public payment link, gateway webhooks) raise a
 * process-wide epoch instead, and cached entries also expire after a minute as a backstop for
 * several app processes sharing one database.
 */

let epoch = 0;
export const currentEpoch = () => epoch;

export async function markSchoolChanged(db: Db, schoolId: string): Promise<void> {
  await db
    .insert(schoolDataVersions)
    .values({ schoolId, version: 1 })
    .onConflictDoUpdate({ target: schoolDataVersions.schoolId, set: { version: sql`${schoolDataVersions.version} + 1`, changedAt: sql`now()` } });
}

export async function schoolVersion(db: Db, schoolId: string): Promise<number> {
  const [row] = rowsOf<{ version: string }>(
    await db.execute(sql`select version::text as version from ${schoolDataVersions} where school_id = ${schoolId}`),
  );
  return row ? Number(row.version) : 0;
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function bump(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const schoolId = request.auth?.schoolId;
  if (!schoolId) {
    epoch += 1;
    return;
  }
  try {
    await markSchoolChanged(app.deps.db, schoolId);
  } catch (error) {
    // the write itself succeeded; stale figures then last at most the cache's minute
    request.log.warn({ err: error }, 'could not mark school data changed');
    epoch += 1;
  }
}

/** Requests whose change was already marked before their answer went out (and not streamed). */
const marked = new WeakSet<FastifyRequest>();
const isWrite = (request: FastifyRequest, status: number) => WRITE.has(request.method) && status < 400 && request.url.startsWith('/api/');

/** Raises the school's counter after every successful write (registered once, at the app's root). */
export function registerDataVersions(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isWrite(request, reply.statusCode)) return payload;
    await bump(app, request);
    // a streamed answer keeps writing after this point: it is marked again at its end
    if (!(payload && typeof (payload as { pipe?: unknown }).pipe === 'function')) marked.add(request);
    return payload;
  });
  // streamed and hijacked answers (the bulk import writes while it reports progress)
  app.addHook('onResponse', async (request, reply) => {
    if (isWrite(request, reply.statusCode) && !marked.has(request)) await bump(app, request);
  });
}

/**
 * A small per-process cache of computed figures, keyed by school and a validity key (data
 * version, India date, epoch). Concurrent requests for the same missing entry share one computation.
 */
export class FigureCache<T> {
  private entries = new Map<string, { key: string; at: number; value: Promise<T> }>();
  constructor(
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 500,
  ) {}

  get(schoolId: string, key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(schoolId);
    if (hit && hit.key === key && now - hit.at < this.maxAgeMs) return hit.value;
    const value = compute();
    this.entries.set(schoolId, { key, at: now, value });
    value.catch(() => {
      if (this.entries.get(schoolId)?.value === value) this.entries.delete(schoolId);
    });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }
}
