import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { hashPassword } from './passwords';
import { findUserByEmail } from './queries';

/**
 * Creates the master administrator, or resets the password of the existing one with that email.
 * Refuses to turn a school administrator's account into a master account.
 */
export async function ensureMasterAdmin(
  db: Db,
  { email, password, now }: { email: string; password: string; now: Date },
): Promise<'created' | 'updated'> {
  const passwordHash = await hashPassword(password);
  const existing = await findUserByEmail(db, email);
  if (existing) {
    if (existing.role !== 'master_admin') {
      throw new Error(`${email} belongs to a school administrator; choose another email for the master administrator`);
    }
    await db.update(users).set({ passwordHash }).where(eq(users.id, existing.id));
    return 'updated';
  }
  await db.insert(users).values({
    email: email.toLowerCase(),
    username: 'Master Admin',
    passwordHash,
    role: 'master_admin',
    schoolId: null,
    emailConfirmedAt: now,
    createdAt: now,
  });
  return 'created';
}
