import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { indiaMonthKey } from '../../domain/ledger';
import { indiaDate } from '../../domain/sessions';
import { paise, toRupeeString } from '../../domain/money';
import {
  DEFAULT_REMINDER_SETTINGS,
  nextScheduledRun,
  scheduleDue,
  maskMobile,
  MESSAGE_CHANNELS,

  reminderSettingsSchema,
  sendRemindersSchema,
} from '../../domain/reminders';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { reminderSettings } from '../db/schema';
import { conflict } from '../lib/errors';
import type { MessageRow } from '../messages/outbox';
import { listDefaulters } from './defaulters';
import { logShare, previewReminder, sendReminders, studentMessages } from './send';

const money = z.string().describe('rupees, two decimals');
const channel = z.enum(MESSAGE_CHANNELS);

const messageDto = z.object({
  id: z.string(),
  at: z.string().describe('when it was queued (or shared)'),
  channel,
  to: z.string().describe('masked: +91 XXXXXX3210'),
  status: z.enum(['queued', 'sending', 'sent', 'delivered', 'failed', 'shared']),
  error: z.string().nullable(),
  linkUrl: z.string().nullable(),
  origin: z.enum(['single', 'bulk', 'schedule', 'share']),
  sentAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});

const toMessageDto = (m: MessageRow): z.infer<typeof messageDto> => ({
  id: m.id,
  at: m.createdAt.toISOString(),
  channel: m.channel,
  to: maskMobile(m.toNumber),
  status: m.status,
  error: m.lastError,
  linkUrl: m.linkUrl,
  origin: m.origin,
  sentAt: m.sentAt?.toISOString() ?? null,
  deliveredAt: m.deliveredAt?.toISOString() ?? null,
});

const settingsDto = reminderSettingsSchema.extend({
  lastRunMonth: z.string().nullable().describe('YYYY-MM of the last monthly run'),
  lastRunAt: z.string().nullable(),
  lastRunSummary: z.object({ queued: z.number().int(), skipped: z.number().int() }).nullable(),
  nextRunDate: z.string().nullable().describe('YYYY-MM-DD (India) of the next monthly run; null when off'),
  channelsAvailable: z.array(channel).describe('the channels this server can send on'),
});

const sendResultDto = z.object({
  queued: z.array(z.object({ studentId: z.string(), channel })),
  skipped: z.array(z.object({ studentId: z.string(), studentName: z.string(), reason: z.string() })),
});

const previewDto = z.object({
  studentId: z.string(),
  studentName: z.string(),
  amount: money,
  linkUrl: z.string(),
  text: z.string().describe('the words of the reminder'),
  shareUrl: z.string().nullable().describe('https://wa.me/91…?text=… for the clerk’s own phone; null when the family does not take WhatsApp'),
  shareRefusal: z.string().nullable(),
  channels: z.array(z.object({ channel, to: z.string().nullable(), allowed: z.boolean(), reason: z.string().nullable() })),
});

const NOT_SET_UP =
  'Reminders are not set up on this server. The administrator sets MESSAGES_PROVIDER with the WhatsApp or SMS settings (see the README).';

const userIdOf = (request: FastifyRequest) => request.auth?.userId ?? null;

export async function reminderRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, messages } = app.deps;
  const available = messages.channels;
  const security = [{ bearer: [] }];

  app.post(
    '/api/reminders/send',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['reminders'],
        summary: 'Queue fee reminders with a payment link by WhatsApp or SMS (ruling 35)',
        description:
          'One message per student and channel the family allows (preferred: the family’s own choice; both → WhatsApp and SMS); the rest are skipped with the reason. The same family on the same channel within 10 minutes is skipped (a double click sends once). Sent in the background; see GET /api/students/{id}/messages.',
        security,
        body: sendRemindersSchema,
        response: { 200: sendResultDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      if (available.length === 0) throw conflict(NOT_SET_UP);
      const { studentIds, channel: requested } = request.body;
      return sendReminders(db, {
        schoolId: schoolIdOf(request),
        studentIds,
        channel: requested,
        origin: studentIds.length === 1 ? 'single' : 'bulk',
        createdBy: userIdOf(request),
        available,
        now: clock.now(),
      });
    },
  );

  app.post(
    '/api/reminders/preview',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['reminders'],
        summary: 'What a reminder to one student says, with their outstanding payment link (made or reused now) and the wa.me share link',
        security,
        body: z.object({ studentId: z.string().trim().min(1, 'Please select a student first').max(100) }),
        response: { 200: previewDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const p = await previewReminder(db, { schoolId: schoolIdOf(request), studentId: request.body.studentId, createdBy: userIdOf(request), available, now: clock.now() });
      const { amountPaise, linkId: _linkId, ...rest } = p;
      return { ...rest, amount: toRupeeString(paise(amountPaise)) };
    },
  );

  app.post(
    '/api/reminders/share',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['reminders'],
        summary: 'Log a "Share on WhatsApp" from the clerk’s own phone in the student’s message log (nothing is sent by the server)',
        security,
        body: z.object({ studentId: z.string().trim().min(1).max(100) }),
        response: { 200: messageDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => toMessageDto(await logShare(db, { schoolId: schoolIdOf(request), studentId: request.body.studentId, createdBy: userIdOf(request), now: clock.now() })),
  );

  app.get(
    '/api/students/:id/messages',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['reminders'],
        summary: 'The student’s message log: every reminder, its channel, masked number, status (queued, sent, delivered, failed, shared) and link',
        security,
        params: z.object({ id: z.string().max(100) }),
        response: { 200: z.object({ messages: z.array(messageDto) }), 404: errorDto },
      },
    },
    async (request) => ({ messages: (await studentMessages(db, { schoolId: schoolIdOf(request), studentId: request.params.id })).map(toMessageDto) }),
  );

  app.get(
    '/api/reminders/defaulters',
    {
      onRequest: requireSchool,
      config: { permission: 'reports.view' },
      schema: {
        tags: ['reminders'],
        summary: 'Active students with fees outstanding till this month, optionally of one class and section: whom "Remind defaulters" sends to',
        security,
        querystring: z.object({ className: z.string().trim().max(30).optional(), section: z.string().trim().max(5).optional() }),
        response: {
          200: z.object({
            students: z.array(z.object({ id: z.string(), name: z.string(), className: z.string(), section: z.string(), rollNumber: z.number().int(), outstanding: money })),
          }),
        },
      },
    },
    async (request) => {
      const rows = await listDefaulters(db, { schoolId: schoolIdOf(request), asOfMonth: indiaMonthKey(clock.now()), ...request.query });
      return { students: rows.map(({ owedPaise, ...r }) => ({ ...r, outstanding: toRupeeString(owedPaise) })) };
    },
  );

  const readSettings = async (schoolId: string): Promise<z.infer<typeof settingsDto>> => {
    const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.schoolId, schoolId)).limit(1);
    const settings = row ? { enabled: row.enabled, dayOfMonth: row.dayOfMonth, channel: row.channel } : DEFAULT_REMINDER_SETTINGS;
    return {
      ...settings,
      nextRunDate: nextScheduledRun(settings, row?.lastRunMonth ?? null, indiaDate(clock.now())),
      lastRunMonth: row?.lastRunMonth ?? null,
      lastRunAt: row?.lastRunAt?.toISOString() ?? null,
      lastRunSummary: row?.lastRunSummary ?? null,
      channelsAvailable: [...available],
    };
  };

  app.get(
    '/api/settings/reminders',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['reminders'],
        summary: 'The monthly reminder schedule ("on the 5th, remind everyone who owes")',
        security,
        response: { 200: settingsDto },
      },
    },
    async (request) => readSettings(schoolIdOf(request)),
  );

  app.put(
    '/api/settings/reminders',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.setup' },
      schema: {
        tags: ['reminders'],
        summary: 'Turn the monthly reminder schedule on or off, pick its day (1–28) and channel',
        security,
        body: reminderSettingsSchema,
        response: { 200: settingsDto, 400: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const values = request.body;
      if (values.enabled && available.length === 0) throw conflict(NOT_SET_UP);
      const now = clock.now();
      const today = indiaDate(now);
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(reminderSettings).where(eq(reminderSettings.schoolId, schoolId)).for('update').limit(1);
        // switched on after this month's day has passed: the first run is next month, not at once
        const skipThisMonth = scheduleDue(values, row?.lastRunMonth ?? null, today);
        const set = { ...values, updatedAt: now, ...(skipThisMonth ? { lastRunMonth: today.slice(0, 7) } : {}) };
        await tx.insert(reminderSettings).values({ schoolId, ...set }).onConflictDoUpdate({ target: reminderSettings.schoolId, set });
      });
      return readSettings(schoolId);
    },
  );
}

