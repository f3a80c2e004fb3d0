import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMaster } from '../auth/context';
import { schools, users } from '../db/schema';
import { mailOutboxHealth } from '../mail/outbox';
import { schoolDto, toSchoolDto } from '../schools/queries';

export async function adminRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/admin/schools',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'Every school with its plan and trial clock (master administrator)',
        security: [{ bearer: [] }],
        response: { 200: z.array(schoolDto) },
      },
    },
    async () => {
      const now = clock.now();
      const rows = await db.select().from(schools).orderBy(desc(schools.createdAt));
      return rows.map((r) => toSchoolDto(r, now));
    },
  );

  app.get(
    '/api/admin/users',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'Every user account (master administrator)',
        security: [{ bearer: [] }],
        response: {
          200: z.array(
            z.object({
              id: z.string(),
              username: z.string(),
              email: z.string(),
              role: z.enum(['school_admin', 'master_admin']),
              schoolId: z.string().nullable(),
              schoolName: z.string().nullable(),
              createdAt: z.string(),
              lastLoginAt: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async () => {
      const rows = await db
        .select({
          id: users.id,
          username: users.username,
          email: users.email,
          role: users.role,
          schoolId: users.schoolId,
          schoolName: schools.name,
          createdAt: users.createdAt,
          lastLoginAt: users.lastLoginAt,
        })
        .from(users)
        .leftJoin(schools, eq(schools.id, users.schoolId))
        .orderBy(desc(users.createdAt));
      return rows.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
      }));
    },
  );

  app.get(
    '/api/admin/mail-outbox',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'Whether mail is going out: waiting and failed mails, the oldest waiting, the last failure (master administrator)',
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            queued: z.number().int(),
            failed: z.number().int(),
            oldestQueuedAt: z.string().nullable(),
            lastFailure: z
              .object({
                at: z.string(),
                error: z.string(),
                to: z.string().describe('masked, e.g. h***@school.test'),
                status: z.enum(['queued', 'sending', 'sent', 'failed']).describe('where that mail stands now'),
              })
              .nullable(),
          }),
        },
      },
    },
    async () => {
      const health = await mailOutboxHealth(db);
      return {
        ...health,
        oldestQueuedAt: health.oldestQueuedAt?.toISOString() ?? null,
        lastFailure: health.lastFailure ? { ...health.lastFailure, at: health.lastFailure.at.toISOString() } : null,
      };
    },
  );
}
