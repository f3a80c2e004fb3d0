import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { BOARDS } from '../../domain/boards';
import { accessState, type SubscriptionStatus } from '../../domain/plans';
import type { Db } from '../db/client';
import { schoolLogos, schools } from '../db/schema';
import { effectiveSchool } from '../plans/timeline';

export type SchoolRow = typeof schools.$inferSelect;

export const trialStatusDto = z.object({ isExpired: z.boolean(), daysRemaining: z.number().int().nullable() });

export const schoolDto = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  schoolCode: z.string().nullable(),
  /** the examination board: cbse, icse, state or jkbose (decision 0032) */
  board: z.enum(BOARDS),
  subscriptionPlan: z.string(),
  subscriptionStatus: z.enum(['trial', 'active', 'expired', 'cancelled']),
  trialEndsAt: z.string().nullable(),
  planStartDate: z.string().nullable(),
  planEndDate: z.string().nullable(),
  createdAt: z.string(),
  trialStatus: trialStatusDto,
  isExpired: z.boolean(),
  daysRemaining: z.number().int().nullable(),
  /** once true, the first-time subscription discount no longer applies */
  hasPaidSubscription: z.boolean(),
  /** a lower plan already paid for, starting when the current plan ends (ruling 28) */
  queuedPlan: z.object({ plan: z.string(), startDate: z.string(), endDate: z.string() }).nullable(),
  /** the place of supply of its tax invoices and its GSTIN (ruling 33) */
  state: z.string().nullable(),
  gstin: z.string().nullable(),
  /** the master administrator deactivated the school: nobody of it can sign in */
  deactivated: z.boolean(),
});
export type SchoolDto = z.infer<typeof schoolDto>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSchoolDto(stored: SchoolRow, now: Date): SchoolDto {
  const row = effectiveSchool(stored, now);
  const storedStatus = row.subscriptionStatus as SubscriptionStatus;
  const access = accessState({ subscriptionStatus: storedStatus, trialEndsAt: row.trialEndsAt, planEndDate: row.queuedEnd ?? row.planEndDate }, now);
  // statuses are always true: a paid plan whose end has passed is expired, whether or not the
  // scheduled job has written that yet (a cancelled plan stays cancelled: it says no renewal)
  const status: SubscriptionStatus = storedStatus === 'active' && access.isExpired ? 'expired' : storedStatus;
  const trial = accessState({ subscriptionStatus: 'trial', trialEndsAt: row.trialEndsAt, planEndDate: null }, now);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    schoolCode: row.schoolCode,
    board: row.board,
    subscriptionPlan: row.subscriptionPlan,
    subscriptionStatus: status,
    trialEndsAt: iso(row.trialEndsAt),
    planStartDate: iso(row.planStartDate),
    planEndDate: iso(row.planEndDate),
    createdAt: row.createdAt.toISOString(),
    trialStatus: { isExpired: trial.isExpired, daysRemaining: trial.daysRemaining },
    isExpired: access.isExpired,
    daysRemaining: access.daysRemaining,
    hasPaidSubscription: row.hasPaidSubscription,
    queuedPlan:
      row.queuedPlan && row.queuedStart && row.queuedEnd
        ? { plan: row.queuedPlan, startDate: row.queuedStart.toISOString(), endDate: row.queuedEnd.toISOString() }
        : null,
    state: row.state,
    gstin: row.gstin,
    deactivated: row.deactivatedAt !== null,
  };
}

export async function findSchool(db: Db, { schoolId }: { schoolId: string }): Promise<SchoolRow | undefined> {
  const [row] = await db.select().from(schools).where(eq(schools.id, schoolId)).limit(1);
  return row;
}

export interface SchoolLogo {
  contentType: 'image/png' | 'image/jpeg';
  image: Buffer;
  updatedAt: Date;
}

/** The school's own logo, or undefined: the session's school only, so no school sees another's. */
export async function findSchoolLogo(db: Db, { schoolId }: { schoolId: string }): Promise<SchoolLogo | undefined> {
  const [row] = await db
    .select({ contentType: schoolLogos.contentType, image: schoolLogos.image, updatedAt: schoolLogos.updatedAt })
    .from(schoolLogos)
    .where(eq(schoolLogos.schoolId, schoolId))
    .limit(1);
  return row;
}
