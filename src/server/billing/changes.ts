import { and, eq, isNull } from 'drizzle-orm';
import type { SubscriptionStatus } from '../../domain/plans';
import type { Db } from '../db/client';
import { authSessions, schools } from '../db/schema';
import type { SchoolRow } from '../schools/queries';

export const CHANGE_TEXTS = {
  notFound: 'School not found',
  alreadyCancelled: 'This subscription is already cancelled',
  nothingToCancel: 'There is no paid plan to cancel: the school is on its trial or its plan has ended',
  unknownPlan: (plan: string) => `Unknown plan "${plan}": choose basic, standard or premium`,
  alreadyDeactivated: 'This school is already deactivated',
  notDeactivated: 'This school is not deactivated',
  deactivated: "This school's account has been deactivated. Please contact support.",
  /** ruling 5: an operator's clientId names one request; reused for another, it is refused */
  requestKeyReused: 'This request was already recorded with different details (the same clientId was used). Refresh the page to see what was saved.',
} as const;

export async function lockSchool(tx: Db, schoolId: string): Promise<SchoolRow | undefined> {
  const [row] = await tx.select().from(schools).where(eq(schools.id, schoolId)).for('update');
  return row;
}

/** What the audit log keeps of a school's plan before and after a change. */
export function planSnapshot(row: SchoolRow) {
  return {
    plan: row.subscriptionPlan,
    status: row.subscriptionStatus,
    trialEndsAt: row.trialEndsAt,
    planStartDate: row.planStartDate,
    planEndDate: row.planEndDate,
    queuedPlan: row.queuedPlan,
    queuedEnd: row.queuedEnd,
  };
}

/**
 * Ruling 15: cancelling means no renewal; access continues until the end of what is paid for. With
 * `endAccessNow` (master administrator only) the end becomes now and a queued plan is dropped;
 * without it a queued plan already paid for still runs to its end.
 * A trial has no end date of a plan: its trial end becomes the access end.
 */
export function cancelledColumns(row: SchoolRow, endAccessNow: boolean, now: Date) {
  const end = endAccessNow ? now : (row.planEndDate ?? row.trialEndsAt ?? now);
  return {
    subscriptionStatus: 'cancelled' as SubscriptionStatus,
    planEndDate: end,
    ...(endAccessNow ? { queuedPlan: null, queuedStart: null, queuedEnd: null, queuedValuePaise: null } : {}),
    ...(endAccessNow && row.subscriptionStatus === 'trial' && row.trialEndsAt && row.trialEndsAt > now ? { trialEndsAt: now } : {}),
    updatedAt: now,
  };
}

/** Ends every session and remember-me token of the school's users (a deactivation). */
export async function revokeSchoolSessions(tx: Db, schoolId: string, now: Date): Promise<void> {
  await tx
    .update(authSessions)
    .set({ revokedAt: now })
    .where(and(eq(authSessions.schoolId, schoolId), isNull(authSessions.revokedAt)));
}
