import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userTotp } from '../db/schema';
import type { FieldCipher } from '../lib/crypto';
import { verifyTotp } from './totp';

export type TotpRow = typeof userTotp.$inferSelect;

export async function findTotp(db: Db, userId: string): Promise<TotpRow | undefined> {
  const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
  return row;
}

/** A user with a confirmed authenticator: their sign-in needs a code. */
export async function totpEnabled(db: Db, userId: string): Promise<TotpRow | undefined> {
  const row = await findTotp(db, userId);
  return row?.enabledAt ? row : undefined;
}

/**
 * Checks a code and, when it is right, stores its step in the same statement, guarded by the step
 * stored before: two requests with one code cannot both pass, and a code once used is spent.
 */
export async function useTotpCode(db: Db, cipher: FieldCipher, row: TotpRow, code: string, now: Date): Promise<boolean> {
  const step = verifyTotp(cipher.decrypt(row.secretCipher), code, now, row.lastStep);
  if (step === null) return false;
  const updated = await db
    .update(userTotp)
    .set({ lastStep: step })
    .where(and(eq(userTotp.userId, row.userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
    .returning({ userId: userTotp.userId });
  return updated.length === 1;
}

/** Enrolment starts (or starts over) with a new secret that is not yet in force. */
export async function startEnrolment(db: Db, cipher: FieldCipher, userId: string, secret: string, now: Date): Promise<void> {
  const secretCipher = cipher.encrypt(secret);
  await db
    .insert(userTotp)
    .values({ userId, secretCipher, enabledAt: null, lastStep: null, createdAt: now })
    .onConflictDoUpdate({ target: userTotp.userId, set: { secretCipher, enabledAt: null, lastStep: null, createdAt: now }, setWhere: isNull(userTotp.enabledAt) });
}

export async function enableTotp(db: Db, userId: string, now: Date): Promise<void> {
  await db.update(userTotp).set({ enabledAt: now }).where(and(eq(userTotp.userId, userId), isNull(userTotp.enabledAt)));
}

export async function removeTotp(db: Db, userId: string): Promise<boolean> {
  const rows = await db.delete(userTotp).where(eq(userTotp.userId, userId)).returning({ userId: userTotp.userId });
  return rows.length > 0;
}
