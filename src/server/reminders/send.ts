import { and, desc, eq, gt, inArray, ne } from 'drizzle-orm';
import {
  planReminder,
  reminderText,
  SKIP_MESSAGES,
  templateValues,
  whatsappShareUrl,
  type MessageChannel,
  type RequestedChannel,
} from '../../domain/reminders';
import type { Db } from '../db/client';
import { messageOutbox, schools, students } from '../db/schema';
import { HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { lockFor } from '../lib/locks';
import { queueMessages, type QueuedMessage } from '../messages/outbox';
import { outstandingLink, type ReminderLink } from './links';

/** A second send within this window to the same family on the same channel is the same send (a double click, two clerks). */
export const RESEND_WINDOW_MS = 10 * 60_000;

export interface SendResult {
  queued: Array<{ studentId: string; channel: MessageChannel }>;
  skipped: Array<{ studentId: string; studentName: string; reason: string }>;
}

type StudentRow = typeof students.$inferSelect;

export interface SendRequest {
  schoolId: string;
  studentIds: string[];
  channel: RequestedChannel;
  origin: 'single' | 'bulk' | 'schedule';
  createdBy: string | null;
  /** the channels this server can send on */
  available: readonly MessageChannel[];
  now: Date;
}

/** The students of the school among `ids`, in the order asked; a missing one is 404 (another school's student is not found). */
async function loadStudents(tx: Db, schoolId: string, ids: string[]): Promise<StudentRow[]> {
  const unique = [...new Set(ids)];
  if (!unique.every(isUuid)) throw notFound('Student not found');
  const rows = await tx.select().from(students).where(and(eq(students.schoolId, schoolId), inArray(students.id, unique)));
  if (rows.length !== unique.length) throw notFound('Student not found');
  const byId = new Map(rows.map((r) => [r.id, r]));
  return unique.map((id) => byId.get(id)!);
}

async function schoolName(tx: Db, schoolId: string): Promise<string> {
  const [row] = await tx.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)).limit(1);
  return row?.name ?? '';
}

/**
 * The link for one student inside a savepoint: a link that cannot be made (nothing due) rolls back
 * alone and becomes the student's skip reason, the others go on.
 */
async function linkOrReason(tx: Db, args: { schoolId: string; studentId: string; createdBy: string | null }, now: Date): Promise<ReminderLink | string> {
  try {
    return await tx.transaction((sp) => outstandingLink(sp as unknown as Db, args, now));
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) return error.statusCode === 409 ? SKIP_MESSAGES.nothing_due() : error.message;
    throw error;
  }
}

/**
 * Queues reminders (ruling 35) in one transaction: for every student, what the family allows on
 * the channel asked, with their outstanding payment link; the rest skipped with the reason. The
 * school's reminder lock makes a double click or two clerks at once queue each message once: the
 * second finds the first's rows inside RESEND_WINDOW_MS and skips them.
 */
export async function sendReminders(db: Db, req: SendRequest): Promise<SendResult> {
  return db.transaction(async (tx) => {
    await lockFor(tx, `reminders:${req.schoolId}`);
    const people = await loadStudents(tx, req.schoolId, req.studentIds);
    const name = await schoolName(tx, req.schoolId);
    const recent = await tx
      .select({ studentId: messageOutbox.studentId, channel: messageOutbox.channel })
      .from(messageOutbox)
      .where(
        and(
          eq(messageOutbox.schoolId, req.schoolId),
          inArray(
            messageOutbox.studentId,
            people.map((p) => p.id),
          ),
          gt(messageOutbox.createdAt, new Date(req.now.getTime() - RESEND_WINDOW_MS)),
          ne(messageOutbox.status, 'failed'),
          ne(messageOutbox.origin, 'share'),
        ),
      );
    const recently = new Set(recent.map((r) => `${r.studentId}:${r.channel}`));
    const result: SendResult = { queued: [], skipped: [] };
    const toQueue: QueuedMessage[] = [];
    for (const student of people) {
      const skip = (reason: string) => result.skipped.push({ studentId: student.id, studentName: student.name, reason });
      if (student.status !== 'active') {
        skip(SKIP_MESSAGES.passout());
        continue;
      }
      const plan = planReminder(student, req.channel, req.available);
      if (!plan.ok) {
        skip(plan.message);
        continue;
      }
      const sends = plan.sends.filter((s) => !recently.has(`${student.id}:${s.channel}`));
      if (sends.length === 0) {
        skip(SKIP_MESSAGES.recently_sent());
        continue;
      }
      const link = await linkOrReason(tx, { schoolId: req.schoolId, studentId: student.id, createdBy: req.createdBy }, req.now);
      if (typeof link === 'string') {
        skip(link);
        continue;
      }
      const words = { schoolName: name, studentName: student.name, amount: link.amountPaise, url: link.url };
      for (const send of sends) {
        toQueue.push({
          schoolId: req.schoolId,
          studentId: student.id,
          channel: send.channel,
          to: send.to,
          body: reminderText(words),
          templateValues: templateValues(words),
          linkId: link.id,
          linkUrl: link.url,
          origin: req.origin,
          createdBy: req.createdBy,
          now: req.now,
        });
        result.queued.push({ studentId: student.id, channel: send.channel });
      }
    }
    await queueMessages(tx, toQueue);
    return result;
  });
}

export interface SharePreview {
  studentId: string;
  studentName: string;
  amountPaise: number;
  linkId: string;
  linkUrl: string;
  text: string;
  /** `https://wa.me/91…?text=…` when the family allows WhatsApp and has a number; else null with the reason */
  shareUrl: string | null;
  shareRefusal: string | null;
  channels: Array<{ channel: MessageChannel; to: string | null; allowed: boolean; reason: string | null }>;
}

/**
 * What a reminder to one student would say, with their link made (or reused) now, so the dialog
 * can show the words and "Share on WhatsApp" can be a plain link the clerk's phone opens. Throws
 * 409 when nothing is due.
 */
export async function previewReminder(
  db: Db,
  { schoolId, studentId, createdBy, available, now }: { schoolId: string; studentId: string; createdBy: string | null; available: readonly MessageChannel[]; now: Date },
): Promise<SharePreview> {
  return db.transaction(async (tx) => {
    const [student] = await loadStudents(tx, schoolId, [studentId]);
    if (student!.status !== 'active') throw new HttpError(409, SKIP_MESSAGES.passout());
    const link = await outstandingLink(tx, { schoolId, studentId, createdBy }, now);
    const words = { schoolName: await schoolName(tx, schoolId), studentName: student!.name, amount: link.amountPaise, url: link.url };
    const text = reminderText(words);
    const whatsapp = planReminder(student!, 'whatsapp');
    const channels = (['whatsapp', 'sms'] as const).map((channel) => {
      const plan = planReminder(student!, channel, available);
      return plan.ok
        ? { channel, to: plan.sends[0]!.to, allowed: true, reason: null }
        : { channel, to: null, allowed: false, reason: plan.message };
    });
    return {
      studentId,
      studentName: student!.name,
      amountPaise: link.amountPaise,
      linkId: link.id,
      linkUrl: link.url,
      text,
      shareUrl: whatsapp.ok ? whatsappShareUrl(whatsapp.sends[0]!.to, text) : null,
      shareRefusal: whatsapp.ok ? null : whatsapp.message,
      channels,
    };
  });
}

/** Logs a "Share on WhatsApp" from the clerk's phone: the server sent nothing, but the family's log shows it. */
export async function logShare(db: Db, { schoolId, studentId, createdBy, now }: { schoolId: string; studentId: string; createdBy: string | null; now: Date }) {
  return db.transaction(async (tx) => {
    const [student] = await loadStudents(tx, schoolId, [studentId]);
    const plan = planReminder(student!, 'whatsapp');
    if (!plan.ok) throw new HttpError(409, plan.message);
    const link = await outstandingLink(tx, { schoolId, studentId, createdBy }, now);
    const words = { schoolName: await schoolName(tx, schoolId), studentName: student!.name, amount: link.amountPaise, url: link.url };
    const [row] = await tx
      .insert(messageOutbox)
      .values({
        schoolId,
        studentId,
        channel: 'whatsapp',
        toNumber: plan.sends[0]!.to,
        body: reminderText(words),
        templateValues: templateValues(words),
        linkId: link.id,
        linkUrl: link.url,
        origin: 'share',
        status: 'shared',
        createdAt: now,
        createdBy,
      })
      .returning();
    return row!;
  });
}

export async function studentMessages(db: Db, { schoolId, studentId }: { schoolId: string; studentId: string }) {
  await loadStudents(db, schoolId, [studentId]);
  return db
    .select()
    .from(messageOutbox)
    .where(and(eq(messageOutbox.schoolId, schoolId), eq(messageOutbox.studentId, studentId)))
    .orderBy(desc(messageOutbox.createdAt))
    .limit(200);
}

