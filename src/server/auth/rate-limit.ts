import { and, count, eq, gt, min } from 'drizzle-orm';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { loginEvents } from '../db/schema';

export const MAX_FAILED_SIGN_INS = 5;
export const FAILED_SIGN_IN_WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins are counted per email address from the sign-in history in the database, so
 * the limit holds across restarts and across several server processes.
 */
export class LoginLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Seconds until another attempt is allowed, or 0 when the address may try now. */
  async retryAfterSeconds(email: string): Promise<number> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - FAILED_SIGN_IN_WINDOW_MS);
    const [row] = await this.db
      .select({ failures: count(), oldest: min(loginEvents.createdAt) })
      .from(loginEvents)
      .where(and(eq(loginEvents.email, email), eq(loginEvents.success, false), gt(loginEvents.createdAt, since)));
    if (!row || row.failures < MAX_FAILED_SIGN_INS || !row.oldest) return 0;
    const oldest = row.oldest instanceof Date ? row.oldest : new Date(row.oldest);
    const freeAt = oldest.getTime() + FAILED_SIGN_IN_WINDOW_MS;
    return Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000));
  }
}

export function retryMessage(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  return `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
