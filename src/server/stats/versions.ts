import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { schoolDataVersions } from '../db/schema';
import { rowsOf } from '../lib/sql-rows';

/**
 * When a school's data last changed, so whole-school figures (stats, charts) can be computed once
 * and served again until something changes (docs/decisions/0011-report-queries.md).
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

/** This process's own count of changes per school: its writes invalidate its cache at once. */
const localVersions = new Map<string, number>();
/** The shared counter as last read, so a busy school costs one small query a second, not one per request. */
const sharedVersions = new Map<string, { version: number; readAt: number }>();
const SHARED_CHECK_MS = 1000;

export async function markSchoolChanged(db: Db, schoolId: string): Promise<void> {
  localVersions.set(schoolId, (localVersions.get(schoolId) ?? 0) + 1);
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
  localVersions.set(schoolId, (localVersions.get(schoolId) ?? 0) + 1);
  try {
    await markSchoolChanged(app.deps.db, schoolId);
  } catch (error) {
    // the write itself succeeded; stale figures then last at most the cache's minute
    request.log.warn({ err: error }, 'could not mark school data changed');
    epoch += 1;
  }
}

/**
 * A key that changes whenever the school's data may have changed: at once for writes made through
 * this process, within a second for writes made by another process on the same database.
 */
export async function dataVersionKey(db: Db, schoolId: string, nowMs: number): Promise<string> {
  let shared = sharedVersions.get(schoolId);
  if (!shared || nowMs - shared.readAt >= SHARED_CHECK_MS) {
    shared = { version: await schoolVersion(db, schoolId), readAt: nowMs };
    sharedVersions.set(schoolId, shared);
    if (sharedVersions.size > 5000) sharedVersions.delete(sharedVersions.keys().next().value!);
  }
  return `${localVersions.get(schoolId) ?? 0}.${shared.version}.${epoch}`;
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
 * A small per-process cache of computed figures, keyed by school and a validity key (data version,
 * India date). Concurrent requests for the same missing entry share one computation.
 *
 * Figures that take long to compute (a school of tens of thousands of students: seconds) are not
 * made to wait for after every save: while the new figures are computed, the previous ones (at most
 * `maxAgeMs` old) are served, so the cards trail a save by the computation time there. Figures
 * that compute quickly are always recomputed first, so they agree with the ledger at once.
 */
export class FigureCache<T> {
  private entries = new Map<string, { key: string; at: number; value: Promise<T>; tookMs: number; settled: boolean }>();
  private refreshing = new Map<string, Promise<T>>();
  constructor(
    private readonly maxAgeMs = 60_000,
    private readonly maxEntries = 500,
    private readonly slowMs = 1_000,
  ) {}

  get(schoolId: string, key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(schoolId);
    const fresh = hit !== undefined && now - hit.at < this.maxAgeMs;
    if (hit && fresh && hit.key === key) return hit.value;
    if (hit && fresh && hit.settled && hit.tookMs >= this.slowMs) {
      if (!this.refreshing.has(schoolId)) {
        const next = this.start(schoolId, key, now, compute);
        this.refreshing.set(schoolId, next);
        void next.then(
          () => this.refreshing.delete(schoolId),
          () => this.refreshing.delete(schoolId),
        );
      }
      return hit.value;
    }
    return this.start(schoolId, key, now, compute);
  }

  private start(schoolId: string, key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const began = performance.now();
    const value = compute();
    const entry = { key, at: now, value, tookMs: 0, settled: false };
    const previous = this.entries.get(schoolId);
    // a slow school keeps serving its previous figures until these are ready
    if (!previous || !previous.settled || previous.tookMs < this.slowMs || previous.key === key) this.entries.set(schoolId, entry);
    value.then(
      () => {
        entry.tookMs = performance.now() - began;
        entry.settled = true;
        this.entries.set(schoolId, entry);
      },
      () => {
        if (this.entries.get(schoolId) === entry) this.entries.delete(schoolId);
      },
    );
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }
}
