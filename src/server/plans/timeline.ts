import { eq } from 'drizzle-orm';
import { paise } from '../../domain/money';
import { settleTimeline, type PlanRanks, type PlanTimeline } from '../../domain/plans';
import type { Db } from '../db/client';
import { schools } from '../db/schema';
import { sessionCache } from '../auth/session-cache';
import type { SchoolRow } from '../schools/queries';
import { listPlans } from './queries';

/** What the school has paid for, read from its row (ruling 28). A trial or an ended plan has no running period. */
export function timelineOf(row: SchoolRow): PlanTimeline {
  const paidFor = (row.subscriptionStatus === 'active' || row.subscriptionStatus === 'cancelled') && row.planEndDate;
  return {
    current: paidFor
      ? {
          planId: row.subscriptionPlan,
          valueFrom: row.planValueFrom ?? row.planStartDate ?? row.planEndDate!,
          end: row.planEndDate!,
          value: paise(row.planValuePaise ?? 0),
        }
      : null,
    queued:
      row.queuedPlan && row.queuedStart && row.queuedEnd
        ? { planId: row.queuedPlan, start: row.queuedStart, end: row.queuedEnd, value: paise(row.queuedValuePaise ?? 0) }
        : null,
  };
}

/** The columns of `schools` that hold a timeline. */
export function timelineColumns(timeline: PlanTimeline) {
  const { current, queued } = timeline;
  return {
    ...(current
      ? { subscriptionPlan: current.planId, planEndDate: current.end, planValueFrom: current.valueFrom, planValuePaise: current.value }
      : {}),
    queuedPlan: queued?.planId ?? null,
    queuedStart: queued?.start ?? null,
    queuedEnd: queued?.end ?? null,
    queuedValuePaise: queued?.value ?? null,
  };
}

/** True when a queued lower plan should already be in force. */
export function queueIsDue(row: Pick<SchoolRow, 'queuedStart'>, now: Date): boolean {
  return row.queuedStart !== null && row.queuedStart <= now;
}

/** The row as it stands at `now`: a queued plan whose time has come is applied (in memory only). */
export function effectiveSchool(row: SchoolRow, now: Date): SchoolRow {
  if (!queueIsDue(row, now)) return row;
  const timeline = timelineOf(row);
  const settled = settleTimeline(timeline, now);
  if (settled === timeline || !settled.current) return row;
  return { ...row, ...timelineColumns(settled), subscriptionStatus: 'active', planStartDate: settled.current.valueFrom };
}

/**
 * Writes a due queued plan into the school row, so every query that joins the school's plan (the
 * student limit, for one) sees the lower plan from its start date. Called by the session check;
 * no scheduled job is needed because nothing reads the plan without a session.
 */
export async function settleDuePlan(db: Db, schoolId: string, now: Date): Promise<void> {
  const changed = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(schools).where(eq(schools.id, schoolId)).for('update');
    if (!row || !queueIsDue(row, now)) return false;
    const next = effectiveSchool(row, now);
    if (next === row) return false;
    await tx
      .update(schools)
      .set({ ...timelineColumns(timelineOf(next)), subscriptionStatus: next.subscriptionStatus, planStartDate: next.planStartDate, updatedAt: now })
      .where(eq(schools.id, schoolId));
    return true;
  });
  if (changed) sessionCache.forgetSchool(schoolId);
}

/** The catalogue's order of plans (by sort order): ranks a plan as higher or lower. */
export async function planRanks(db: Db): Promise<PlanRanks> {
  return new Map((await listPlans(db)).map((p) => [p.id, p.sortOrder]));
}
