import { asc, eq } from 'drizzle-orm';
import { PLAN_SEED } from '../../domain/plans';
import type { Db } from '../db/client';
import { plans } from '../db/schema';

/** Adds any missing plan of the seed catalogue; prices the master administrator changed are kept. */
export async function seedPlans(db: Db): Promise<void> {
  await db
    .insert(plans)
    .values(
      PLAN_SEED.map((p) => ({
        id: p.id,
        name: p.name,
        monthlyPricePaise: p.monthlyPrice,
        yearlyPricePaise: p.yearlyPrice,
        studentLimit: p.studentLimit,
        userLimit: p.userLimit,
        features: p.features,
        recommended: p.recommended,
        sortOrder: p.sortOrder,
      })),
    )
    .onConflictDoNothing({ target: plans.id });
}

export type PlanRow = typeof plans.$inferSelect;

export function listPlans(db: Db): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sortOrder));
}

export async function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  const [row] = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
  return row;
}
