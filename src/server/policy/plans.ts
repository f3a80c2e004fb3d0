import { sql } from 'drizzle-orm';
import { DEFAULT_PLAN, type InstalmentPlan } from '../../domain/instalments';
import type { Db } from '../db/client';
import { instalmentPlans } from '../db/schema';
import { read, readRows, type Bound, type Read } from '../lib/read-at-once';

/**
 * The one lookup of instalment plans (issue 16, decision 0048) every account reads through: fee
 * status, Record Fee Payment, the payment link, statements, fines, carried balances and the running
 * balances (`balances/inputs.ts`), so they all agree on what has fallen due. One small read per
 * school (a row per class that has a plan, and the default), looked up in memory per student.
 */

/** `scope` as stored: '' for the school's default, a class name in lower case otherwise. */
export type SchoolPlans = ReadonlyMap<string, InstalmentPlan>;

export const DEFAULT_SCOPE = 'default';

/** The stored scope of a path scope: '' for "default", the class name (any case) otherwise. */
export const storedScope = (scope: string): string => (scope.trim().toLowerCase() === DEFAULT_SCOPE ? '' : scope.trim());

export async function loadPlans(db: Db, schoolId: string): Promise<SchoolPlans> {
  return plansFrom(await readRows(db, plansRead(schoolId)));
}

export interface StoredPlan {
  scope: string;
  plan: unknown;
}

/** The school's plan rows, to read beside others (`readAtOnce`); `plansFrom` keys them. */
export function plansRead(schoolId: Bound): Read<StoredPlan> {
  return read(sql`select scope, plan from ${instalmentPlans} where school_id = ${schoolId}`, (r) => ({ scope: String(r.scope), plan: r.plan }));
}

export function plansFrom(rows: readonly StoredPlan[]): SchoolPlans {
  return new Map(rows.map((r) => [r.scope.trim().toLowerCase(), { ...DEFAULT_PLAN, ...(r.plan as InstalmentPlan) }]));
}

/** The plan of a class: its own, else the school's default, else monthly. */
export function planFor(plans: SchoolPlans, className: string): InstalmentPlan {
  return plans.get(className.trim().toLowerCase()) ?? plans.get('') ?? DEFAULT_PLAN;
}
