import { and, count, desc, eq, gt, gte, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATE_ORDER_MESSAGE, isIsoDate } from '../../domain/reports';
import { requireMaster } from '../auth/context';
import { errorDto } from '../auth/dto';
import { revokeSession } from '../auth/queries';
import { sessionCache } from '../auth/session-cache';
import { auditLog, authSessions, loginEvents, schools, users } from '../db/schema';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { listLocks, parseKey, unlock } from './locks';

/**
 * The Security tab (ruling 22, decision 0035): sign-in history with IP and browser, live sessions
 * with revoke, the throttle's locks with unlock, and the audit log with filters. Master only;
 * the two writes are audited with the reason the administrator gives.
 */

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** An India calendar date (`YYYY-MM-DD`) filter: blank is absent, anything else must be a real date. */
const dateQuery = (name: string) =>
  z
    .string()
    .optional()
    .transform((v, ctx): string | undefined => {
      const text = (v ?? '').trim();
      if (!text) return undefined;
      if (!isIsoDate(text)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a date written as YYYY-MM-DD` });
        return z.NEVER;
      }
      return text;
    });

const paging = {
  page: z.coerce.number({ error: 'page must be a number' }).int('page must be a whole number').min(1, 'page starts at 1').max(100_000).optional().default(1),
  pageSize: z.coerce.number({ error: 'pageSize must be a number' }).int().min(1, 'pageSize must be 1 to 200').max(200, 'pageSize must be 1 to 200').optional().default(50),
};

const dateRange = { from: dateQuery('from'), to: dateQuery('to') };
const orderedDates = <T extends { from?: string | undefined; to?: string | undefined }>(v: T) => !v.from || !v.to || v.from <= v.to;

/** The start of an India day as an instant: 00:00 in Asia/Kolkata (UTC+5:30, no daylight saving). */
function indiaDayStart(date: string): Date {
  return new Date(`${date}T00:00:00+05:30`);
}
function nextIndiaDayStart(date: string): Date {
  return new Date(indiaDayStart(date).getTime() + 86_400_000);
}
function dateConditions(column: Parameters<typeof gte>[0], range: { from?: string | undefined; to?: string | undefined }): SQL[] {
  const out: SQL[] = [];
  if (range.from) out.push(gte(column, indiaDayStart(range.from)));
  if (range.to) out.push(lt(column, nextIndiaDayStart(range.to)));
  return out;
}

const reasonField = z.string({ error: 'Please give a reason' }).trim().min(3, 'Please give a reason').max(500, 'The reason is too long');

const signInDto = z.object({
  id: z.number().int(),
  at: z.string(),
  email: z.string(),
  success: z.boolean(),
  reason: z.string().nullable().describe('bad_credentials, bad_totp or throttled for a failure'),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  schoolId: z.string().nullable(),
  schoolName: z.string().nullable(),
});

const sessionDto = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(['school_admin', 'master_admin']),
  schoolId: z.string().nullable(),
  schoolName: z.string().nullable(),
  kind: z.enum(['session', 'remember']),
  createdAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean().describe('the session making this request'),
});

const lockDto = z.object({
  key: z.string(),
  kind: z.enum(['account-ip', 'account', 'ip', 'recovery-email', 'recovery-ip']),
  email: z.string().nullable(),
  ip: z.string().nullable(),
  failures: z.number().int(),
  lockedUntil: z.string(),
});

const auditDto = z.object({
  id: z.number().int(),
  at: z.string(),
  schoolId: z.string().nullable(),
  schoolName: z.string().nullable(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});

export async function securityRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const guard = { onRequest: requireMaster } as const;

  app.get(
    '/api/admin/security/sign-ins',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Sign-in history, newest first, with IP and browser; filter by address, result and India dates (master administrator)',
        security: [{ bearer: [] }],
        querystring: z
          .object({
            email: z.string().trim().max(254).optional(),
            result: z.enum(['success', 'failure'], { error: 'result must be success or failure' }).optional(),
            ...dateRange,
            ...paging,
          })
          .refine(orderedDates, DATE_ORDER_MESSAGE),
        response: {
          200: z.object({ total: z.number().int(), page: z.number().int(), pageSize: z.number().int(), failedLastDay: z.number().int(), items: z.array(signInDto) }),
          400: errorDto,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [...dateConditions(loginEvents.createdAt, q)];
      if (q.email) where.push(sql`${loginEvents.email} ilike ${`%${escapeLike(q.email.toLowerCase())}%`}`);
      if (q.result) where.push(eq(loginEvents.success, q.result === 'success'));
      const filter = where.length ? and(...where) : undefined;
      const [total] = await db.select({ n: count() }).from(loginEvents).where(filter);
      const rows = await db
        .select({
          id: loginEvents.id,
          at: loginEvents.createdAt,
          email: loginEvents.email,
          success: loginEvents.success,
          reason: loginEvents.reason,
          ip: loginEvents.ip,
          userAgent: loginEvents.userAgent,
          schoolId: loginEvents.schoolId,
          schoolName: schools.name,
        })
        .from(loginEvents)
        .leftJoin(schools, eq(schools.id, loginEvents.schoolId))
        .where(filter)
        .orderBy(desc(loginEvents.createdAt), desc(loginEvents.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      const dayAgo = new Date(clock.now().getTime() - 86_400_000);
      const [failed] = await db
        .select({ n: count() })
        .from(loginEvents)
        .where(and(eq(loginEvents.success, false), gt(loginEvents.createdAt, dayAgo)));
      return {
        total: Number(total?.n ?? 0),
        page: q.page,
        pageSize: q.pageSize,
        failedLastDay: Number(failed?.n ?? 0),
        items: rows.map((r) => ({ ...r, id: Number(r.id), at: r.at.toISOString() })),
      };
    },
  );

  app.get(
    '/api/admin/security/sessions',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Sessions that are signed in now (not revoked, not expired), newest first (master administrator)',
        security: [{ bearer: [] }],
        querystring: z.object({ schoolId: z.uuid({ error: 'schoolId must be a school id' }).optional() }),
        response: { 200: z.array(sessionDto), 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const where = [isNull(authSessions.revokedAt), gt(authSessions.expiresAt, now)];
      if (request.query.schoolId) where.push(eq(authSessions.schoolId, request.query.schoolId));
      const rows = await db
        .select({
          id: authSessions.id,
          userId: authSessions.userId,
          email: users.email,
          username: users.username,
          role: users.role,
          schoolId: authSessions.schoolId,
          schoolName: schools.name,
          kind: authSessions.kind,
          createdAt: authSessions.createdAt,
          expiresAt: authSessions.expiresAt,
          ip: authSessions.ip,
          userAgent: authSessions.userAgent,
        })
        .from(authSessions)
        .innerJoin(users, eq(users.id, authSessions.userId))
        .leftJoin(schools, eq(schools.id, authSessions.schoolId))
        .where(and(...where))
        .orderBy(desc(authSessions.createdAt))
        .limit(500);
      const current = request.auth!.sessionId;
      return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString(), current: r.id === current }));
    },
  );

  app.post(
    '/api/admin/security/sessions/:id/revoke',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Sign a session out now (and the remember-me token it came from); audited with the reason (master administrator)',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid({ error: 'Session not found' }) }),
        body: z.object({ reason: reasonField }),
        response: { 200: z.object({ message: z.string() }), 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const [row] = await db
        .select({ id: authSessions.id, userId: authSessions.userId, schoolId: authSessions.schoolId, kind: authSessions.kind })
        .from(authSessions)
        .where(and(eq(authSessions.id, request.params.id), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, now)))
        .limit(1);
      if (!row) throw notFound('Session not found or already signed out');
      await db.transaction(async (tx) => {
        // forgets the session-check cache entry too (decision 0013): the token stops at its next request
        await revokeSession(tx, row.id, now);
        await audit(tx, { schoolId: row.schoolId, userId: request.auth!.userId, ip: request.ip }, {
          action: 'session.revoke',
          entity: 'auth_session',
          entityId: row.id,
          after: { reason: request.body.reason, user: row.userId, kind: row.kind },
        });
      });
      // again after the commit: a check that read the row before it was revoked must not keep it
      sessionCache.forgetSession(row.id);
      return { message: 'Session signed out' };
    },
  );

  app.get(
    '/api/admin/security/locks',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Addresses, IPs and address+IP pairs the sign-in throttle holds right now (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: z.array(lockDto) },
      },
    },
    async () => (await listLocks(db, clock.now())).map((l) => ({ ...l, lockedUntil: l.lockedUntil.toISOString() })),
  );

  app.post(
    '/api/admin/security/locks/unlock',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Lift a sign-in lock: its counter starts afresh; audited with the reason (master administrator)',
        security: [{ bearer: [] }],
        body: z.object({ key: z.string().min(1, 'Lock not found').max(600), reason: reasonField }),
        response: { 200: z.object({ message: z.string() }), 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const parsed = parseKey(request.body.key);
      if (!parsed) throw notFound('Lock not found');
      const removed = await db.transaction(async (tx) => {
        const keys = await unlock(tx, [request.body.key]);
        if (keys.length > 0) {
          const user = parsed.email ? (await tx.select({ id: users.id, schoolId: users.schoolId }).from(users).where(sql`lower(${users.email}) = ${parsed.email}`).limit(1))[0] : undefined;
          await audit(tx, { schoolId: user?.schoolId ?? null, userId: request.auth!.userId, ip: request.ip }, {
            action: 'signin.unlock',
            entity: 'auth_throttle',
            entityId: request.body.key,
            after: { reason: request.body.reason, email: parsed.email, ip: parsed.ip },
          });
        }
        return keys;
      });
      if (removed.length === 0) throw notFound('Lock not found');
      return { message: 'Unlocked' };
    },
  );

  app.get(
    '/api/admin/audit-log',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'The audit log, newest first: filter by school, user (email), action and India dates (master administrator)',
        security: [{ bearer: [] }],
        querystring: z
          .object({
            schoolId: z.uuid({ error: 'schoolId must be a school id' }).optional(),
            user: z.string().trim().max(254).optional().describe('part of the acting user’s email'),
            action: z.string().trim().max(100).optional().describe('exact action, e.g. receipt.cancel'),
            ...dateRange,
            ...paging,
          })
          .refine(orderedDates, DATE_ORDER_MESSAGE),
        response: {
          200: z.object({ total: z.number().int(), page: z.number().int(), pageSize: z.number().int(), items: z.array(auditDto) }),
          400: errorDto,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [...dateConditions(auditLog.createdAt, q)];
      if (q.schoolId) where.push(eq(auditLog.schoolId, q.schoolId));
      if (q.action) where.push(eq(auditLog.action, q.action));
      if (q.user) where.push(sql`${users.email} ilike ${`%${escapeLike(q.user.toLowerCase())}%`}`);
      const filter = where.length ? and(...where) : undefined;
      const [total] = await db.select({ n: count() }).from(auditLog).leftJoin(users, eq(users.id, auditLog.userId)).where(filter);
      const rows = await db
        .select({
          id: auditLog.id,
          at: auditLog.createdAt,
          schoolId: auditLog.schoolId,
          schoolName: schools.name,
          userId: auditLog.userId,
          userEmail: users.email,
          action: auditLog.action,
          entity: auditLog.entity,
          entityId: auditLog.entityId,
          before: auditLog.before,
          after: auditLog.after,
          ip: auditLog.ip,
        })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.userId))
        .leftJoin(schools, eq(schools.id, auditLog.schoolId))
        .where(filter)
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(q.pageSize)
        .offset((q.page - 1) * q.pageSize);
      return { total: Number(total?.n ?? 0), page: q.page, pageSize: q.pageSize, items: rows.map((r) => ({ ...r, id: Number(r.id), at: r.at.toISOString() })) };
    },
  );

  app.get(
    '/api/admin/audit-log/actions',
    {
      ...guard,
      schema: {
        tags: ['admin'],
        summary: 'Every action name the audit log holds, for the filter (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: z.array(z.string()) },
      },
    },
    async () => {
      const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
      return rows.map((r) => r.action);
    },
  );
}
