import { and, eq, gt, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { lockFor } from '../lib/locks';
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
  values: {
    userId: string;
    schoolId: string | null;
    kind: 'session' | 'remember';
    now: Date;
    ip?: string;
    userAgent?: string;
    rememberId?: string;
  },
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
      rememberId: values.rememberId ?? null,
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

/** Sign-out: the session and the remember-me token it was opened with, if any. */
export async function revokeSession(db: Db, sessionId: string, now: Date): Promise<void> {
  const rows = await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(
      and(
        isNull(authSessions.revokedAt),
        or(
          eq(authSessions.id, sessionId),
          sql`${authSessions.id} = (select s.remember_id from auth_sessions s where s.id = ${sessionId})`,
        ),
      ),
    )
    .returning({ id: authSessions.id });
  sessionCache.forgetSession(sessionId);
  for (const row of rows) sessionCache.forgetSession(row.id);
}

/**
 * Uses up a remember-me token: its row is revoked in the same statement that finds it, so a token
 * works once (two tabs racing with one token: one wins) and the caller issues the next one.
 */
export async function consumeRememberSession(db: Db, sessionId: string, userId: string, now: Date) {
  const [row] = await db
    .update(authSessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(authSessions.id, sessionId),
        eq(authSessions.userId, userId),
        eq(authSessions.kind, 'remember'),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, now),
      ),
    )
    .returning();
  return row;
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
  values: {
    email: string;
    success: boolean;
    reason?: string;
    userId?: string | null;
    schoolId?: string | null;
    ip?: string;
    userAgent?: string;
    now: Date;
  },
): Promise<void> {
  await db.insert(loginEvents).values({
    email: values.email.toLowerCase(),
    success: values.success,
    reason: values.reason ?? null,
    userId: values.userId ?? null,
    schoolId: values.schoolId ?? null,
    ip: values.ip ?? null,
    userAgent: values.userAgent?.slice(0, 300) ?? null,
    createdAt: values.now,
  });
}

export const CONFIRM_TTL_MS = 7 * 24 * 60 * 60_000;
export const RESET_TTL_MS = 60 * 60_000;

export type MailTokenPurpose = 'confirm_email' | 'reset_password' | 'change_email' | 'invite';
const MAIL_TOKEN_TTL_MS: Record<MailTokenPurpose, number> = {
  // a staff invitation (ruling 32): a week to accept, then the school sends a new one
  invite: CONFIRM_TTL_MS,
  confirm_email: CONFIRM_TTL_MS,
  reset_password: RESET_TTL_MS,
  change_email: 24 * 60 * 60_000,
};

/** A new link voids the earlier unused links of the same purpose: only the newest mail works. */
export async function issueMailToken(
  db: Db,
  values: { userId: string; schoolId: string | null; purpose: MailTokenPurpose; now: Date; newEmail?: string },
): Promise<string> {
  const { token, hash } = newMailToken();
  // one issue at a time per person, to the end of the caller's transaction: two at once (a resend
  // pressed twice, two reset requests) each voided only the tokens already committed, and both
  // links stayed live; now the second voids the first's
  await lockFor(db, `mail-token:${values.userId}`);
  await voidMailTokens(db, values.userId, [values.purpose], values.now);
  await db.insert(userTokens).values({
    userId: values.userId,
    schoolId: values.schoolId,
    purpose: values.purpose,
    tokenHash: hash,
    newEmail: values.newEmail ?? null,
    createdAt: values.now,
    expiresAt: new Date(values.now.getTime() + MAIL_TOKEN_TTL_MS[values.purpose]),
  });
  return token;
}

/** Marks a user's unused links of these purposes used, e.g. every reset link once the password changes. */
export async function voidMailTokens(db: Db, userId: string, purposes: MailTokenPurpose[], now: Date): Promise<void> {
  await db
    .update(userTokens)
    .set({ usedAt: now })
    .where(and(eq(userTokens.userId, userId), inArray(userTokens.purpose, purposes), isNull(userTokens.usedAt)));
}

/** Whether this IP signed in to this address successfully since `since` (the owner's own network). */
export async function hasSignedInFrom(db: Db, email: string, ip: string, since: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: loginEvents.id })
    .from(loginEvents)
    .where(and(eq(loginEvents.email, email.toLowerCase()), eq(loginEvents.success, true), eq(loginEvents.ip, ip), gt(loginEvents.createdAt, since)))
    .limit(1);
  return Boolean(row);
}

/**
 * Marks a mailed token used and returns its owner, in one statement so two clicks on the same
 * link cannot both succeed.
 */
/**
 * Whether a mailed link was already used for its purpose by a user whose address is now confirmed
 * (a second click on the confirmation link). Says nothing about links that never existed.
 */
export async function usedLinkOfConfirmedUser(db: Db, token: string, purpose: MailTokenPurpose): Promise<boolean> {
  const [row] = await db
    .select({ confirmedAt: users.emailConfirmedAt })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(and(eq(userTokens.tokenHash, hashMailToken(token)), eq(userTokens.purpose, purpose), isNotNull(userTokens.usedAt)))
    .limit(1);
  return Boolean(row?.confirmedAt);
}

export async function consumeMailToken(
  db: Db,
  token: string,
  purpose: MailTokenPurpose,
  now: Date,
): Promise<{ userId: string; schoolId: string | null; newEmail: string | null } | null> {
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
    .returning({ userId: userTokens.userId, schoolId: userTokens.schoolId, newEmail: userTokens.newEmail });
  return row ?? null;
}
