import { desc, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMaster } from '../auth/context';
import { findTotp } from '../auth/totp-store';
import { schools, students, users } from '../db/schema';
import { toSchoolDto } from '../schools/queries';
import { listLocks } from './locks';
import { databaseCheck, diskCheck, mailCheck, messagesCheck, overall, paymentsCheck, processCheck } from './system-checks';

const status = z.enum(['ok', 'warning', 'down']);

const systemStatsDto = z.object({
  totalSchools: z.number().int(),
  activeSchools: z.number().int().describe('a paid plan that has not run out'),
  trialSchools: z.number().int().describe('a trial still running, or waiting for the email to be confirmed'),
  expiredTrials: z.number().int(),
  expiredSchools: z.number().int().describe('a paid plan that has run out'),
  cancelledSchools: z.number().int(),
  totalUsers: z.number().int(),
  totalStudents: z.number().int().describe('active students of every school'),
});

const systemDto = z.object({
  status,
  checkedAt: z.string(),
  database: z.object({
    status,
    kind: z.enum(['pglite', 'postgres']),
    latencyMs: z.number().nullable(),
    migration: z.string().nullable().describe('the newest applied migration'),
    migrationsApplied: z.number().int().nullable(),
    migrationsKnown: z.number().int(),
    error: z.string().nullable(),
  }),
  mail: z.object({
    status,
    transport: z.enum(['smtp', 'development-outbox']),
    queued: z.number().int(),
    failed: z.number().int(),
    oldestQueuedAt: z.string().nullable(),
    lastFailure: z.object({ at: z.string(), error: z.string(), to: z.string(), status: z.enum(['queued', 'sending', 'sent', 'failed']) }).nullable(),
  }),
  messages: z.object({
    status,
    provider: z.enum(['outbox', 'gateways', 'none']).describe('how reminders leave: development files, WhatsApp/SMS gateways, or off'),
    pending: z.number().int(),
    failed: z.number().int(),
    lastFailureAt: z.string().nullable(),
    lastError: z.string().nullable(),
  }),
  payments: z.object({
    status,
    provider: z.enum(['razorpay', 'sandbox']),
    mode: z.enum(['live', 'test', 'sandbox']),
    webhookSecretSet: z.boolean(),
    lastWebhook: z.object({ at: z.string(), event: z.string().nullable(), outcome: z.string() }).nullable(),
    invalidWebhooksLastDay: z.number().int(),
  }),
  disk: z.object({
    status,
    dataDir: z.string(),
    freeBytes: z.number().nullable(),
    totalBytes: z.number().nullable(),
    lastBackupAt: z.string().nullable(),
    backups: z.number().int(),
  }),
  process: z.object({
    status,
    version: z.string(),
    nodeVersion: z.string(),
    environment: z.string(),
    uptimeSeconds: z.number().int(),
    memory: z.object({
      rssBytes: z.number(),
      heapUsedBytes: z.number(),
      heapTotalBytes: z.number(),
      systemFreeBytes: z.number(),
      systemTotalBytes: z.number(),
    }),
    serverErrorsLastHour: z.number().int(),
  }),
});

const healthDto = z.object({
  status,
  checkedAt: z.string(),
  database: z.object({ status, latencyMs: z.number().nullable() }),
  api: z.object({ status, serverErrorsLastHour: z.number().int(), uptimeSeconds: z.number().int() }),
  authentication: z.object({ status, twoStepSignIn: z.boolean(), lockedCount: z.number().int() }),
  mail: z.object({ status, queued: z.number().int(), failed: z.number().int() }),
  payments: z.object({ status, mode: z.enum(['live', 'test', 'sandbox']) }),
});

/** The Overview counts, the Overview's live System Health card, and the System tab's checks. */
export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/stats/system',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'Platform counts: schools by state, users, students (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: systemStatsDto },
      },
    },
    async () => {
      const now = clock.now();
      const rows = await db.select().from(schools).orderBy(desc(schools.createdAt));
      const counts = { totalSchools: rows.length, activeSchools: 0, trialSchools: 0, expiredTrials: 0, expiredSchools: 0, cancelledSchools: 0 };
      for (const row of rows) {
        const s = toSchoolDto(row, now);
        if (s.subscriptionStatus === 'trial') {
          if (s.trialStatus.isExpired) counts.expiredTrials++;
          else counts.trialSchools++;
        } else if (s.subscriptionStatus === 'cancelled') counts.cancelledSchools++;
        else if (s.subscriptionStatus === 'active' && !s.isExpired) counts.activeSchools++;
        else counts.expiredSchools++;
      }
      const [u] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
      const [st] = await db.select({ n: sql<number>`count(*)::int` }).from(students).where(sql`${students.status} = 'active'`);
      return { ...counts, totalUsers: Number(u?.n ?? 0), totalStudents: Number(st?.n ?? 0) };
    },
  );

  app.get(
    '/api/admin/system-health',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'The Overview health card: database, API, sign-in, mail and payments, each ok, warning or down (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: healthDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const [database, mail, payments] = await Promise.all([databaseCheck(app), mailCheck(app), paymentsCheck(app)]);
      const proc = processCheck(app);
      const locks = database.status === 'down' ? [] : await listLocks(db, now);
      const totp = database.status === 'down' ? undefined : await findTotp(db, request.auth!.userId);
      const twoStepSignIn = Boolean(totp?.enabledAt);
      const authentication = { status: twoStepSignIn ? ('ok' as const) : ('warning' as const), twoStepSignIn, lockedCount: locks.length };
      const api = { status: proc.status, serverErrorsLastHour: proc.serverErrorsLastHour, uptimeSeconds: proc.uptimeSeconds };
      return {
        status: overall([database.status, api.status, authentication.status, mail.status, payments.status]),
        checkedAt: now.toISOString(),
        database: { status: database.status, latencyMs: database.latencyMs },
        api,
        authentication,
        mail: { status: mail.status, queued: mail.queued, failed: mail.failed },
        payments: { status: payments.status, mode: payments.mode },
      };
    },
  );

  app.get(
    '/api/admin/system',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary:
          'The System tab: database latency and migration, mail outbox, reminder messages, payment provider and last webhook, disk under DATA_DIR, memory, uptime, version, 5xx answers in the last hour (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: systemDto },
      },
    },
    async () => {
      const [database, mail, messages, payments] = await Promise.all([databaseCheck(app), mailCheck(app), messagesCheck(app), paymentsCheck(app)]);
      const disk = diskCheck(app);
      const proc = processCheck(app);
      return {
        status: overall([database.status, mail.status, messages.status, payments.status, disk.status, proc.status]),
        checkedAt: clock.now().toISOString(),
        database,
        mail,
        messages,
        payments,
        disk,
        process: proc,
      };
    },
  );
}
