import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authThrottle } from '../db/schema';
import { RECOVERY_PER_EMAIL, RECOVERY_PER_IP, SIGN_IN_PER_ACCOUNT, SIGN_IN_PER_ACCOUNT_IP, SIGN_IN_PER_IP } from '../auth/rate-limit';
import { decideAttempt, type ThrottleRule } from '../auth/throttle';

/**
 * The sign-in throttle's counters (decision 0016) read as the Security tab shows them: which
 * address, IP or pair is held right now and until when. A counter is "locked" exactly when the
 * throttle would refuse its next attempt.
 */
const RULES: readonly ThrottleRule[] = [SIGN_IN_PER_ACCOUNT_IP, SIGN_IN_PER_ACCOUNT, SIGN_IN_PER_IP, RECOVERY_PER_EMAIL, RECOVERY_PER_IP];

export type LockKind = 'account-ip' | 'account' | 'ip' | 'recovery-email' | 'recovery-ip';
const KIND: Record<string, LockKind> = {
  [SIGN_IN_PER_ACCOUNT_IP.name]: 'account-ip',
  [SIGN_IN_PER_ACCOUNT.name]: 'account',
  [SIGN_IN_PER_IP.name]: 'ip',
  [RECOVERY_PER_EMAIL.name]: 'recovery-email',
  [RECOVERY_PER_IP.name]: 'recovery-ip',
};

export interface Lock {
  key: string;
  kind: LockKind;
  email: string | null;
  ip: string | null;
  failures: number;
  lockedUntil: Date;
}

/** `signin-acct-ip:head@school.test|10.0.0.1` → the rule and what it counts. */
export function parseKey(key: string): { rule: ThrottleRule; email: string | null; ip: string | null } | null {
  const colon = key.indexOf(':');
  if (colon < 0) return null;
  const rule = RULES.find((r) => r.name === key.slice(0, colon));
  if (!rule) return null;
  const rest = key.slice(colon + 1);
  switch (KIND[rule.name]) {
    case 'account-ip': {
      const bar = rest.lastIndexOf('|');
      return { rule, email: rest.slice(0, bar), ip: rest.slice(bar + 1) };
    }
    case 'account':
    case 'recovery-email':
      return { rule, email: rest, ip: null };
    default:
      return { rule, email: null, ip: rest };
  }
}

export async function listLocks(db: Db, now: Date): Promise<Lock[]> {
  const rows = await db.select().from(authThrottle);
  const locks: Lock[] = [];
  for (const row of rows) {
    const parsed = parseKey(row.key);
    if (!parsed) continue;
    const decision = decideAttempt(parsed.rule, row, now);
    if (decision.admit) continue;
    locks.push({
      key: row.key,
      kind: KIND[parsed.rule.name]!,
      email: parsed.email,
      ip: parsed.ip,
      failures: row.count,
      lockedUntil: new Date(now.getTime() + decision.retryAfterMs),
    });
  }
  return locks.sort((a, b) => b.lockedUntil.getTime() - a.lockedUntil.getTime());
}

/** Unlocking forgets the counters: the next attempt starts afresh. Answers the keys that existed. */
export async function unlock(db: Db, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db.delete(authThrottle).where(inArray(authThrottle.key, keys)).returning({ key: authThrottle.key });
  return rows.map((r) => r.key);
}
