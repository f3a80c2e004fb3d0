import type { StaffRole } from '../../domain/permissions';
import type { SubscriptionStatus } from '../../domain/plans';
import type { TokenPayload } from './tokens';

/** What the per-request session check reads from the database for one bearer token. */
export interface CheckedSession {
  payload: TokenPayload;
  userId: string;
  email: string;
  role: 'school_admin' | 'master_admin';
  /** what a school user may do (ruling 32); null for the master administrator */
  schoolRole: StaffRole | null;
  schoolId: string | null;
  sessionExpiresAt: Date;
  /** planEndDate is the end of everything paid for, a queued lower plan included; queuedStart says when that plan takes over */
  school: { status: SubscriptionStatus; trialEndsAt: Date | null; planEndDate: Date | null; queuedStart: Date | null } | null;
}

interface Entry {
  session: CheckedSession;
  /** app-clock time of the database check */
  checkedAt: number;
}

/**
 * Bearer tokens recently checked against their session row, so a busy screen costs one signature
 * check and one session query every few seconds instead of one per request
 * (docs/decisions/0013-session-check-cache.md).
 *
 * A revocation made by this process (sign-out, password change or reset, email change, a paid plan)
 * forgets the affected entries at once; one made by another process sharing the database takes
 * effect within `ttlMs`. Expiry of the session and of the school's trial or plan is still judged
 * on every request, against the app clock.
 */
export class SessionCache {
  private entries = new Map<string, Entry>();
  /** raised by every forget, so a check that raced a revocation does not store what it read */
  private generation = 0;
  constructor(
    private readonly ttlMs = 10_000,
    private readonly maxEntries = 10_000,
  ) {}

  get(token: string, now: Date): CheckedSession | null {
    const entry = this.entries.get(token);
    if (!entry) return null;
    const age = now.getTime() - entry.checkedAt;
    if (age < 0 || age >= this.ttlMs || entry.session.sessionExpiresAt <= now) {
      this.entries.delete(token);
      return null;
    }
    return entry.session;
  }

  /** The generation to hand back to `set`: read it before the database check begins. */
  mark(): number {
    return this.generation;
  }

  set(token: string, session: CheckedSession, now: Date, generation: number): void {
    if (generation !== this.generation) return;
    this.entries.delete(token);
    this.entries.set(token, { session, checkedAt: now.getTime() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  forgetSession(sessionId: string): void {
    this.forget((s) => s.payload.sid === sessionId);
  }

  forgetUser(userId: string): void {
    this.forget((s) => s.userId === userId);
  }

  forgetSchool(schoolId: string): void {
    this.forget((s) => s.schoolId === schoolId);
  }

  private forget(match: (session: CheckedSession) => boolean): void {
    this.generation += 1;
    for (const [token, entry] of this.entries) if (match(entry.session)) this.entries.delete(token);
  }
}

/** One per process: a revocation written through any app instance of the process reaches it. */
export const sessionCache = new SessionCache();
