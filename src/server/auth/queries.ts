import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { authSessions, loginEvents, users, userTokens } from '../db/schema';
import { sessionCache } from './session-cache';
import { hashMailToken, newMailToken } from './tokens';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return row;
}

export const SESSION_TTL_MS = 24 * 60 * 60_000;
export const REMEMBER_TTL_MS = 30 * 24 * 60 * 60_000;

export async function createSessionRow(
  db: Db,
  values: { userId: string; schoolId: string | null; kind: 'session' | 'remember'; now: Date; ip?: string; userAgent?: string },
): Promise<{ id: string; expiresAt: Date }> {
  const ttl = values.kind === 'remember' ? REMEMBER_TTL_MS : SESSION_TTL_MS;
  const expiresAt = new Date(values.now.getTime() + ttl);
  const [row] = await db
    .insert(authSessions)
    .values({
      userId: values.userId,
      schoolId: values.schoolId,
      kind: values.kind,
      createdAt: values.now,
      expiresAt,
      ip: values.ip ?? null,
      userAgent: values.userAgent?.slice(0, 300) ?? null,
    })
    .returning({ id: authSessions.id });
  return { id: row!.id, expiresAt };
}

export async function findLiveSession(db: Db, sessionId: string, now: Date) {
  const [row] = await db
    .select()
    .from(authSessions)
    .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, now)))
    .limit(1);
  return row;
}

export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(authSessions).set({ revokedAt: now }).where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)));
  sessionCache.forgetSession(sessionId);
}

/** Revokes every live session of a user, except `keepSessionId` when given. */
export async function revokeUserSessions(db: Db, userId: string, now: Date, keepSessionId?: string): Promise<void> {
  const conditions = [eq(authSessions.userId, userId), isNull(authSessions.revokedAt)];
  if (keepSessionId) conditions.push(ne(authSessions.id, keepSessionId));
  await db.update(authSessions).set({ revokedAt: now }).where(and(...conditions));
  // inside a transaction this runs before the commit: the caller forgets the user again after it
  sessionCache.forgetUser(userId);
}

export async function recordLoginEvent(
  db: Db,
  values: { email: string; success: boolean; reason?: string; userId?: string | null; schoolId?: string | null; ip?: string; now: Date },
): Promise<void> {
  await db.insert(loginEvents).values({
    email: values.email.toLowerCase(),
    success: values.success,
    reason: values.reason ?? null,
    userId: values.userId ?? null,
    schoolId: values.schoolId ?? null,
    ip: values.ip ?? null,
    createdAt: values.now,
  });
}

export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
export const RESET_TTL_MS = 60 * 60_000;

export async function issueMailToken(
  db: Db,
  values: { userId: string; schoolId: string | null; purpose: 'confirm_email' | 'reset_password'; now: Date },
): Promise<string> {
  const { token, hash } = newMailToken();
  const ttl = values.purpose === 'reset_password' ? RESET_TTL_MS : CONFIRM_TTL_MS;
  await db.insert(userTokens).values({
    userId: values.userId,
    schoolId: values.schoolId,
    purpose: values.purpose,
    tokenHash: hash,
    createdAt: values.now,
    expiresAt: new Date(values.now.getTime() + ttl),
  });
  return token;
}

/**
 * Marks a mailed token used and returns its owner, in one statement so two clicks on the same
 * link cannot both succeed.
 */
export async function consumeMailToken(
  db: Db,
  token: string,
  purpose: 'confirm_email' | 'reset_password',
  now: Date,
): Promise<{ userId: string; schoolId: string | null } | null> {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(userTokens.tokenHash, hashMailToken(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, now),
      ),
    )
    .returning({ userId: userTokens.userId, schoolId: userTokens.schoolId });
  return row ?? null;
}
