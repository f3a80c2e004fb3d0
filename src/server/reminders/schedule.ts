import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { accessState, type SubscriptionStatus } from '../../domain/plans';
import { MAX_STUDENTS_PER_SEND, scheduleDue, type RequestedChannel } from '../../domain/reminders';
import { indiaDate } from '../../domain/sessions';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { Periodic } from '../lib/periodic';
import { reminderSettings, schools } from '../db/schema';
import type { MessageProvider } from '../messages/provider';
import { listDefaulters } from './defaulters';
import { sendReminders } from './send';

export interface ScheduleRun {
  schoolId: string;
  month: string;
  queued: number;
  skipped: number;
}

/**
 * Runs the monthly schedules that are due ("on the 5th, remind everyone who owes"). Each school's
 * run is one transaction that first moves `last_run_month` to this month (only if it was earlier),
 * so two servers or two ticks run it once; a run that fails rolls that back and is tried at the
 * next tick. A school whose trial or plan has ended is read-only and sends nothing (ruling 14).
 */
export async function runDueSchedules(db: Db, provider: MessageProvider, now: Date): Promise<ScheduleRun[]> {
  if (provider.channels.length === 0) return [];
  const today = indiaDate(now);
  const month = today.slice(0, 7);
  const candidates = await db
    .select({
      schoolId: reminderSettings.schoolId,
      enabled: reminderSettings.enabled,
      dayOfMonth: reminderSettings.dayOfMonth,
      channel: reminderSettings.channel,
      lastRunMonth: reminderSettings.lastRunMonth,
      status: schools.subscriptionStatus,
      trialEndsAt: schools.trialEndsAt,
      planEndDate: schools.planEndDate,
      queuedEnd: schools.queuedEnd,
    })
    .from(reminderSettings)
    .innerJoin(schools, eq(schools.id, reminderSettings.schoolId))
    .where(eq(reminderSettings.enabled, true));
  const runs: ScheduleRun[] = [];
  for (const c of candidates) {
    if (!scheduleDue({ enabled: c.enabled, dayOfMonth: c.dayOfMonth, channel: c.channel }, c.lastRunMonth, today)) continue;
    const access = accessState({ subscriptionStatus: c.status as SubscriptionStatus, trialEndsAt: c.trialEndsAt, planEndDate: c.queuedEnd ?? c.planEndDate }, now);
    if (access.isExpired) continue;
    const run = await runSchool(db, provider, { schoolId: c.schoolId, channel: c.channel, month, now });
    if (run) runs.push(run);
  }
  return runs;
}

async function runSchool(db: Db, provider: MessageProvider, { schoolId, channel, month, now }: { schoolId: string; channel: RequestedChannel; month: string; now: Date }): Promise<ScheduleRun | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(reminderSettings)
      .set({ lastRunMonth: month, lastRunAt: now })
      .where(and(eq(reminderSettings.schoolId, schoolId), eq(reminderSettings.enabled, true), notRunIn(month)))
      .returning({ schoolId: reminderSettings.schoolId });
    if (!claimed) return null;
    const defaulters = await listDefaulters(tx, { schoolId, asOfMonth: month });
    let queued = 0;
    let skipped = 0;
    for (let i = 0; i < defaulters.length; i += MAX_STUDENTS_PER_SEND) {
      const ids = defaulters.slice(i, i + MAX_STUDENTS_PER_SEND).map((d) => d.id);
      const result = await sendReminders(tx, { schoolId, studentIds: ids, channel, origin: 'schedule', createdBy: null, available: provider.channels, now });
      queued += new Set(result.queued.map((q) => q.studentId)).size;
      skipped += result.skipped.length;
    }
    await tx.update(reminderSettings).set({ lastRunSummary: { queued, skipped } }).where(eq(reminderSettings.schoolId, schoolId));
    return { schoolId, month, queued, skipped };
  });
}

/** `last_run_month` is null or before `month` (text `YYYY-MM` sorts as dates do). */
const notRunIn = (month: string) => or(isNull(reminderSettings.lastRunMonth), lt(reminderSettings.lastRunMonth, month));

/**
 * Looks for due schedules every `intervalMs` (an hour): the day of month is coarse, an hour late is
 * fine. The first look comes shortly after start, so a server restarted on the 5th does not wait an hour.
 */
export class ReminderScheduler {
  private readonly job: Periodic<ScheduleRun[]>;

  constructor(
    private readonly db: Db,
    private readonly provider: MessageProvider,
    private readonly clock: Clock,
    private readonly onQueued: () => void,
    private readonly log: { error(obj: object, msg: string): void; info(obj: object, msg: string): void },
    intervalMs = 60 * 60_000,
  ) {
    this.job = new Periodic({ everyMs: intervalMs, firstAfterMs: 30_000, look: () => this.look(), onError: (err) => this.log.error({ err }, 'the reminder schedule could not run') });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  runOnce(): Promise<ScheduleRun[]> {
    return this.job.runOnce();
  }

  private async look(): Promise<ScheduleRun[]> {
    const runs = await runDueSchedules(this.db, this.provider, this.clock.now());
    for (const r of runs) this.log.info(r, 'monthly reminders queued');
    if (runs.some((r) => r.queued > 0)) this.onQueued();
    return runs;
  }
}
