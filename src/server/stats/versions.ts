import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { schoolDataVersions } from '../db/schema';
import { notifyBus } from '../lib/notify-bus';
import { rowsOf } from '../lib/sql-rows';

/**
 * When a school's data last changed, so whole-school figures (stats, charts) can be computed once
 * and served again until something changes (docs/decisions/0011-report-queries.md).
 *
 * Every successful write a school makes through the API raises its counter before the answer is
 * sent (so the next read already sees it): one single-row update after the write's own transaction
 * has committed, so it cannot deadlock with it; a fee save raises it in its own write instead, the
 * statement that commits it (`versionRaisedBy`, decision 0052). Writes
 * that do not come through a school's session (the public payment link, gateway webhooks) raise a
 * process-wide epoch instead, and cached entries also expire after a minute as a backstop for
 * several app processes sharing one database.
 */

let epoch = 0;
export const currentEpoch = () => epoch;

/** This process's own count of changes per school: its writes invalidate its cache at once. */
const localVersions = new Map<string, number>();
/** The shared counter as last read, so a busy school costs one small query a second, not one per request. */
const sharedVersions = new Map<string, SharedRead>();
interface SharedRead {
  version: Promise<number>;
  readAt: number;
  /** a renewal read in the background while this one is still used (`dataVersionKey`) */
  renewing?: boolean;
}
const SHARED_CHECK_MS = 1000;

/**
 * The shared counter as last read, moved by one change that raised it: the read is kept, with the time
 * it was made. Dropping it (as this did until decision 0080) made the next request of the school read
 * the counter again, one more round trip and pool checkout in front of every figure computed after a
 * write: under the mixed load a school's grid saves came faster than a second apart, so nearly every
 * stats flight began with it. The key still moves at once, by the local count; when the read is
 * renewed a second later it finds the value this already holds, so the key does not move a second
 * time with nothing changed. A change counted here that the read had already seen (a read made while
 * a save committed) moves the key once more at the renewal: one extra computation, never a stale one.
 */
function keepShared(schoolId: string, version: (held: number) => number): void {
  const held = sharedVersions.get(schoolId);
  if (!held) return;
  const next = { version: held.version.then(version), readAt: held.readAt };
  next.version.catch(() => {
    if (sharedVersions.get(schoolId) === next) sharedVersions.delete(schoolId);
  });
  sharedVersions.set(schoolId, next);
}

/** A change to the school's data: this process's key for it moves at once, and the shared counter as read moves with it. */
function changed(schoolId: string): void {
  localVersions.set(schoolId, (localVersions.get(schoolId) ?? 0) + 1);
  keepShared(schoolId, (v) => v + 1);
}

// another process's change (decision 0043): this process's key for the school moves at once
notifyBus.subscribe((message) => {
  if (message.kind === 'data') changed(message.schoolId);
  else if (message.kind === 'epoch' || message.kind === 'reset') epoch += 1;
});

/** The statement that raises a school's shared counter, alone or as a common table of a write. */
export const raiseSchoolVersion = (schoolId: string | Placeholder): SQL => sql`
  insert into ${schoolDataVersions} (school_id, version) values (${schoolId}::uuid, 1)
  on conflict (school_id) do update set version = ${schoolDataVersions}.version + 1, changed_at = now()`;

export async function markSchoolChanged(db: Db, schoolId: string): Promise<void> {
  changed(schoolId);
  const [row] = rowsOf<{ version: string }>(await db.execute(sql`${raiseSchoolVersion(schoolId)} returning version::text as version`));
  // the counter as raised: a read that started while it was being raised may hold the old value
  if (row) {
    const raised = Number(row.version);
    keepShared(schoolId, (held) => Math.max(held, raised));
  }
  notifyBus.publish({ kind: 'data', schoolId });
}

/**
 * Requests whose write raised the shared counter in its own committed transaction (a save that
 * commits with its write, decision 0052): after it, only this process's key moves and the other
 * processes are told; a second upsert of the same row, in a transaction of its own with its own
 * WAL flush, would change nothing more.
 */
const raisedInWrite = new WeakSet<FastifyRequest>();
export function versionRaisedBy(request: FastifyRequest): void {
  raisedInWrite.add(request);
}

export async function schoolVersion(db: Db, schoolId: string): Promise<number> {
  const [row] = rowsOf<{ version: string }>(
    await db.execute(sql`select version::text as version from ${schoolDataVersions} where school_id = ${schoolId}`),
  );
  return row ? Number(row.version) : 0;
}

/**
 * Reads the shared counter again while `held` stays in use; the new read replaces it once answered.
 * When a change of this process moved the held value meanwhile (`keepShared`), the larger of the two
 * is kept: the read may have been made before that change committed, and the key must not move back
 * or move twice for one change. A failed read leaves `held` to be renewed by the next request.
 */
function renewShared(db: Db, schoolId: string, held: SharedRead, nowMs: number): void {
  held.renewing = true;
  schoolVersion(db, schoolId).then(
    (version) => {
      const current = sharedVersions.get(schoolId);
      if (current === held) sharedVersions.set(schoolId, { version: Promise.resolve(version), readAt: nowMs });
      else if (current) sharedVersions.set(schoolId, { version: current.version.then((v) => Math.max(v, version), () => version), readAt: nowMs });
    },
    () => {
      held.renewing = false;
    },
  );
}

const WRITE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function bump(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const schoolId = request.auth?.schoolId;
  if (!schoolId) {
    epoch += 1;
    notifyBus.publish({ kind: 'epoch' });
    return;
  }
  if (raisedInWrite.has(request)) {
    changed(schoolId);
    notifyBus.publish({ kind: 'data', schoolId });
    return;
  }
  try {
    // moves this process's key itself, first, so it moves even when the raise fails
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
  // read before anything else, so a write made while the shared counter is read is not missed
  const local = localVersions.get(schoolId) ?? 0;
  const at = epoch;
  let shared = sharedVersions.get(schoolId);
  if (shared && nowMs - shared.readAt >= SHARED_CHECK_MS && notifyBus.listening) {
    // Another process's change reaches this one on the bus in milliseconds; the read is the backstop
    // for a message lost. While listening, it is renewed beside the request instead of in front of it
    // (decision 0105): under a load each read is a wait in the pool's queue, the length of a whole
    // request, and the dashboard's cards waited for it before their own computation's.
    if (!shared.renewing) renewShared(db, schoolId, shared, nowMs);
  } else if (!shared || nowMs - shared.readAt >= SHARED_CHECK_MS) {
    // one read of the shared counter at a time: concurrent requests await the same one
    const read = { version: schoolVersion(db, schoolId), readAt: nowMs };
    sharedVersions.set(schoolId, read);
    read.version.catch(() => {
      if (sharedVersions.get(schoolId) === read) sharedVersions.delete(schoolId);
    });
    if (sharedVersions.size > 5000) sharedVersions.delete(sharedVersions.keys().next().value!);
    shared = read;
  }
  return `${local}.${await shared.version}.${at}`;
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
