import { and, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { authThrottle } from '../db/schema';

/**
 * How many attempts a key may make (docs/decisions/0016-sign-in-throttle.md).
 * A counting rule refuses once `limit` attempts were made in the window, until the window ends.
 * A backoff rule lets `limit - 1` attempts through freely; from the `limit`-th on, each attempt
 * makes the key wait `baseMs`, then twice that, … up to `maxMs`, so a stranger slows a guesser
 * down without locking the owner out for long.
 */
export interface ThrottleRule {
  name: string;
  limit: number;
  windowMs: number;
  backoff?: { baseMs: number; maxMs: number };
}

export interface ThrottleState {
  count: number;
  windowStart: Date;
  blockedUntil: Date | null;
}

export type ThrottleDecision = { admit: true; next: ThrottleState } | { admit: false; retryAfterMs: number };

/** The rule itself, without I/O: what happens to one key when one more attempt arrives. */
export function decideAttempt(rule: ThrottleRule, state: ThrottleState | undefined, now: Date): ThrottleDecision {
  const t = now.getTime();
  let s = state;
  const windowOver = s && t - s.windowStart.getTime() >= rule.windowMs;
  const blocked = s?.blockedUntil && s.blockedUntil.getTime() > t;
  if (!s || (windowOver && !blocked)) s = { count: 0, windowStart: now, blockedUntil: null };
  if (s.blockedUntil && s.blockedUntil.getTime() > t) return { admit: false, retryAfterMs: s.blockedUntil.getTime() - t };
  if (!rule.backoff && s.count >= rule.limit) {
    return { admit: false, retryAfterMs: Math.max(1000, s.windowStart.getTime() + rule.windowMs - t) };
  }
  const count = s.count + 1;
  let blockedUntil = s.blockedUntil;
  if (rule.backoff && count >= rule.limit) {
    // counted as a failure before the check finishes: a parallel burst meets the wait at once
    const wait = Math.min(rule.backoff.baseMs * 2 ** (count - rule.limit), rule.backoff.maxMs);
    blockedUntil = new Date(t + wait);
  }
  return { admit: true, next: { count, windowStart: s.windowStart, blockedUntil } };
}

export interface ThrottleCheck {
  rule: ThrottleRule;
  key: string;
  /**
   * Asked only when this key refuses: true lets the attempt through without counting it here.
   * Reads through the given transaction (on PGlite another connection would wait for it forever).
   */
  exempt?: (db: Db) => Promise<boolean>;
}

/** What an admitted attempt counted, so a success can give it back. */
export interface ThrottleTicket {
  counted: Array<{ rule: ThrottleRule; key: string; windowStart: Date }>;
}

export type ThrottleResult = { admitted: true; ticket: ThrottleTicket } | { admitted: false; retryAfterSeconds: number };

const PRUNE_EVERY_MS = 10 * 60_000;
const KEEP_MS = 24 * 60 * 60_000;

/**
 * Attempt counters in the database: every key of one attempt is locked, judged and written in one
 * transaction, so the count holds under parallel requests and across processes sharing the database.
 */
export class Throttle {
  private lastPrune = 0;
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Counts one attempt against every check, or none of them when any refuses. */
  async admit(checks: ThrottleCheck[]): Promise<ThrottleResult> {
    const now = this.clock.now();
    await this.prune(now);
    const keyed = new Map(checks.map((c) => [throttleKey(c), c]));
    const keys = [...keyed.keys()].sort();
    return this.db.transaction(async (tx) => {
      await tx
        .insert(authThrottle)
        .values(keys.map((key) => ({ key, count: 0, windowStart: now })))
        .onConflictDoNothing();
      const rows = await tx.select().from(authThrottle).where(inArray(authThrottle.key, keys)).orderBy(authThrottle.key).for('update');
      const states = new Map(rows.map((r) => [r.key, r]));
      const writes: Array<{ key: string; check: ThrottleCheck; next: ThrottleState }> = [];
      let retryAfterMs = 0;
      for (const key of keys) {
        const check = keyed.get(key)!;
        const decision = decideAttempt(check.rule, states.get(key), now);
        if (decision.admit) writes.push({ key, check, next: decision.next });
        else if (!(check.exempt && (await check.exempt(tx)))) retryAfterMs = Math.max(retryAfterMs, decision.retryAfterMs);
      }
      if (retryAfterMs > 0) return { admitted: false as const, retryAfterSeconds: Math.ceil(retryAfterMs / 1000) };
      for (const { key, next } of writes) {
        await tx
          .update(authThrottle)
          .set({ count: next.count, windowStart: next.windowStart, blockedUntil: next.blockedUntil })
          .where(sql`${authThrottle.key} = ${key}`);
      }
      return {
        admitted: true as const,
        ticket: { counted: writes.map(({ key, check, next }) => ({ rule: check.rule, key, windowStart: next.windowStart })) },
      };
    });
  }

  /**
   * The attempt succeeded: a backoff key starts afresh (the owner proved the password from there),
   * a counting key gets its attempt back, so only failures use up a limit.
   */
  async release(ticket: ThrottleTicket): Promise<void> {
    for (const { rule, key, windowStart } of ticket.counted) {
      if (rule.backoff) {
        await this.db.delete(authThrottle).where(sql`${authThrottle.key} = ${key}`);
      } else {
        await this.db
          .update(authThrottle)
          .set({ count: sql`greatest(${authThrottle.count} - 1, 0)` })
          .where(and(sql`${authThrottle.key} = ${key}`, sql`${authThrottle.windowStart} = ${windowStart.toISOString()}::timestamptz`));
      }
    }
  }

  /** Counters idle for a day are forgotten; done now and then by whichever request comes. */
  private async prune(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS && this.lastPrune <= now.getTime()) return;
    this.lastPrune = now.getTime();
    const before = new Date(now.getTime() - KEEP_MS);
    await this.db
      .delete(authThrottle)
      .where(and(lt(authThrottle.windowStart, before), or(isNull(authThrottle.blockedUntil), lt(authThrottle.blockedUntil, now))));
  }
}

function throttleKey(check: ThrottleCheck): string {
  return `${check.rule.name}:${check.key}`;
}
