import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paise, toRupeeString } from '../../domain/money';
import { requireMaster } from '../auth/context';
import { errorDto } from '../auth/dto';
import { auditLog, receipts, students, users } from '../db/schema';
import { notFound } from '../lib/errors';
import { findPlan } from '../plans/queries';
import { findSchool, schoolDto, toSchoolDto } from '../schools/queries';
import { indiaMonthKey } from './analytics';

const IST_MS = 330 * 60_000;

/** The instants an India month starts and ends: receipts "this month" as the school's office counts them. */
function indiaMonthRange(now: Date): { from: Date; to: Date } {
  const [y, m] = indiaMonthKey(now).split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(y, m - 1, 1) - IST_MS), to: new Date(Date.UTC(y, m, 1) - IST_MS) };
}

/** One school as the portal's school page shows it: plan, usage, people, recent audit trail. */
export async function schoolDetailRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/admin/schools/:id',
    {
      onRequest: requireMaster,
      schema: {
        tags: ['admin'],
        summary: 'One school: its plan, usage (students, staff, receipts this India month), its users and the latest 50 audit entries (master administrator)',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid({ error: 'School not found' }) }),
        response: {
          200: z.object({
            school: schoolDto,
            plan: z.object({ id: z.string(), name: z.string(), studentLimit: z.number().int().nullable(), monthlyPrice: z.string(), yearlyPrice: z.string() }).nullable(),
            usage: z.object({
              students: z.number().int().describe('active students'),
              staff: z.number().int().describe('user accounts of the school'),
              receiptsThisMonth: z.number().int(),
              collectedThisMonth: z.string().describe('rupees, live receipts of this India month'),
            }),
            users: z.array(z.object({ id: z.string(), username: z.string(), email: z.string(), createdAt: z.string(), lastLoginAt: z.string().nullable(), emailConfirmed: z.boolean() })),
            audit: z.array(
              z.object({ id: z.number().int(), at: z.string(), action: z.string(), entity: z.string(), entityId: z.string().nullable(), userEmail: z.string().nullable(), ip: z.string().nullable(), after: z.unknown() }),
            ),
          }),
          400: errorDto,
          404: errorDto,
        },
      },
    },
    async (request) => {
      const now = clock.now();
      const row = await findSchool(db, { schoolId: request.params.id });
      if (!row) throw notFound('School not found');
      const school = toSchoolDto(row, now);
      const month = indiaMonthRange(now);
      const [plan, studentCount, people, receiptFigures, trail] = await Promise.all([
        findPlan(db, school.subscriptionPlan),
        db.select({ n: sql<number>`count(*)::int` }).from(students).where(and(eq(students.schoolId, row.id), eq(students.status, 'active'))),
        db
          .select({ id: users.id, username: users.username, email: users.email, createdAt: users.createdAt, lastLoginAt: users.lastLoginAt, emailConfirmedAt: users.emailConfirmedAt })
          .from(users)
          .where(eq(users.schoolId, row.id))
          .orderBy(users.createdAt),
        db
          .select({ n: sql<number>`count(*)::int`, total: sql<string>`coalesce(sum(${receipts.totalPaise}), 0)` })
          .from(receipts)
          .where(and(eq(receipts.schoolId, row.id), eq(receipts.status, 'live'), gte(receipts.receivedAt, month.from), lt(receipts.receivedAt, month.to))),
        db
          .select({
            id: auditLog.id,
            at: auditLog.createdAt,
            action: auditLog.action,
            entity: auditLog.entity,
            entityId: auditLog.entityId,
            userEmail: users.email,
            ip: auditLog.ip,
            after: auditLog.after,
          })
          .from(auditLog)
          .leftJoin(users, eq(users.id, auditLog.userId))
          .where(eq(auditLog.schoolId, row.id))
          .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
          .limit(50),
      ]);
      return {
        school,
        plan: plan
          ? {
              id: plan.id,
              name: plan.name,
              studentLimit: plan.studentLimit,
              monthlyPrice: toRupeeString(paise(Number(plan.monthlyPricePaise))),
              yearlyPrice: toRupeeString(paise(Number(plan.yearlyPricePaise))),
            }
          : null,
        usage: {
          students: Number(studentCount[0]?.n ?? 0),
          staff: people.length,
          receiptsThisMonth: Number(receiptFigures[0]?.n ?? 0),
          collectedThisMonth: toRupeeString(paise(Number(receiptFigures[0]?.total ?? 0))),
        },
        users: people.map((u) => ({
          id: u.id,
          username: u.username,
          email: u.email,
          createdAt: u.createdAt.toISOString(),
          lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
          emailConfirmed: Boolean(u.emailConfirmedAt),
        })),
        audit: trail.map((a) => ({ ...a, id: Number(a.id), at: a.at.toISOString() })),
      };
    },
  );
}
