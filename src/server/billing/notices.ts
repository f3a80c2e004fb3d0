import { and, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { sessionCache } from '../auth/session-cache';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { Periodic } from '../lib/periodic';
import { plans, schools, subscriptionNotices } from '../db/schema';
import { queueMail } from '../mail/outbox';
import { expiredMail, renewalReminderMail, trialEndedMail, trialEndingMail } from './mails';

const DAY = 86_400_000;
/** an end older than this is not announced any more (the first run on an old database stays quiet) */
const LOOK_BACK_DAYS = 30;
const EVERY_MS = 15 * 60_000;

type NoticeKind = (typeof subscriptionNotices.$inferInsert)['kind'];

/**
 * Which notice a plan is due at `now`: "ends in 7 days" inside its last week, "ends tomorrow"
 * inside its last day (instead of, not as well as, the 7-day one), "has ended" once it is over.
 * A cancelled plan gets no reminder (it said no renewal), only the notice that it ended. A trial
 * lasts five days (ruling 12): a week's notice would come on its first day, so it gets only the
 * last-day reminder and the notice that it ended.
 */
export function noticeDue(status: 'active' | 'cancelled' | 'trial', end: Date, now: Date): NoticeKind | null {
  const left = end.getTime() - now.getTime();
  if (left <= 0) return 'expired';
  if (status === 'cancelled') return null;
  if (left <= DAY) return 'renewal-1d';
  if (left <= 7 * DAY && status !== 'trial') return 'renewal-7d';
  return null;
}

/**
 * The scheduled job: writes `expired` for paid plans whose end has passed, and queues each renewal
 * reminder and expiry notice once per school and plan (or trial) end (the notice row is the memory; the mail
 * goes through the outbox in the same transaction). Safe to run from several processes at once.
 */
export async function runSubscriptionNotices(db: Db, config: Config, now: Date): Promise<{ queued: number; expired: number }> {
  const paidUntil = sql<Date>`coalesce(${schools.queuedEnd}, ${schools.planEndDate})`;
  const due = await db
    .select({ id: schools.id })
    .from(schools)
    .where(
      and(
        isNull(schools.deactivatedAt),
        or(
          and(
            inArray(schools.subscriptionStatus, ['active', 'cancelled']),
            lte(paidUntil, new Date(now.getTime() + 7 * DAY)),
            gt(paidUntil, new Date(now.getTime() - LOOK_BACK_DAYS * DAY)),
          ),
          // a confirmed trial (trial_ends_at is set at confirmation) near or past its end
          and(
            eq(schools.subscriptionStatus, 'trial'),
            isNotNull(schools.trialEndsAt),
            lte(schools.trialEndsAt, new Date(now.getTime() + DAY)),
            gt(schools.trialEndsAt, new Date(now.getTime() - LOOK_BACK_DAYS * DAY)),
          ),
        ),
      ),
    );
  let queued = 0;
  let expired = 0;
  const renewUrl = `${config.appUrl}/subscription-required`;
  for (const { id } of due) {
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(schools).where(eq(schools.id, id)).for('update');
      if (!row || row.subscriptionStatus === 'expired') return null;
      const trial = row.subscriptionStatus === 'trial';
      // a trial's end is judged from trial_ends_at wherever it is read (the read-only session included)
      const end = trial ? row.trialEndsAt : (row.queuedEnd ?? row.planEndDate);
      if (!end) return null;
      const kind = noticeDue(row.subscriptionStatus, end, now);
      let wroteExpired = false;
      if (kind === 'expired' && row.subscriptionStatus === 'active') {
        await tx.update(schools).set({ subscriptionStatus: 'expired', updatedAt: now }).where(eq(schools.id, id));
        wroteExpired = true;
      }
      if (!kind) return { wroteExpired, mailed: false };
      const [fresh] = await tx
        .insert(subscriptionNotices)
        .values({ schoolId: id, kind, periodEnd: end, queuedAt: now })
        .onConflictDoNothing()
        .returning();
      if (!fresh) return { wroteExpired, mailed: false };
      const [plan] = await tx.select({ name: plans.name }).from(plans).where(eq(plans.id, row.queuedPlan ?? row.subscriptionPlan));
      const message = trial
        ? kind === 'expired'
          ? trialEndedMail(row.email, { schoolName: row.name, endedAt: end, renewUrl })
          : trialEndingMail(row.email, { schoolName: row.name, endsAt: end, renewUrl })
        : kind === 'expired'
          ? expiredMail(row.email, { schoolName: row.name, endedOn: end, renewUrl })
          : renewalReminderMail(row.email, { schoolName: row.name, planName: plan?.name ?? row.subscriptionPlan, endsOn: end, daysLeft: kind === 'renewal-1d' ? 1 : 7, renewUrl });
      await queueMail(tx, { kind: `${trial ? 'trial' : 'subscription'}-${kind}`, schoolId: id, now, ...message });
      return { wroteExpired, mailed: true };
    });
    if (outcome?.wroteExpired) {
      expired += 1;
      sessionCache.forgetSchool(id);
    }
    if (outcome?.mailed) queued += 1;
  }
  return { queued, expired };
}

/** Runs the job every 15 minutes while the app is up (not in tests, which call it with their clock). */
export function startNoticeJob(app: FastifyInstance): void {
  const { db, config, clock } = app.deps;
  if (config.nodeEnv === 'test') return;
  const job = new Periodic({
    everyMs: EVERY_MS,
    firstAfterMs: 30_000,
    look: () => runSubscriptionNotices(db, config, clock.now()),
    onError: (err) => app.log.error({ err }, 'subscription notices failed'),
  });
  app.addHook('onReady', async () => job.start());
  app.addHook('onClose', async () => job.stop());
}
