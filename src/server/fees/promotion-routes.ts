import { eq, and } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseClass } from '../../domain/classes';
import { promoteSchema } from '../../domain/ledger';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { previousBalances, studentEnrollments, students } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict } from '../lib/errors';
import { allocateRollNumbers, rollGroupKey } from '../students/queries';
import { accountThrough, recordCarried } from './balances';
import { money, rupees } from './dto';
import { lockStudentLedger } from './locks';
import { findSessionByYear, findStudentOr404, placementIn } from './queries';

const promoteResponse = z.object({
  message: z.string(),
  student: z.object({
    id: z.string(),
    name: z.string(),
    className: z.string(),
    section: z.string(),
    rollNumber: z.number().int(),
    sessionId: z.string(),
    academicYear: z.string(),
  }),
  previousBalance: z
    .object({ academicYear: z.string(), monthlyOutstanding: money, yearlyOutstanding: money, balance: money })
    .describe("the old session's outstanding (whole session), now carried as a previous balance"),
});

export async function promotionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.post(
    '/api/students/:id/promote',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags: ['students'],
        summary: 'Promote Student: move one student to a class of a later session, carrying the old session\'s outstanding',
        description:
          'toSession and fromSession are session names (2025-2026, 2025-26) or ids. The old session\'s outstanding over all its months (ruling 6) is recorded as a previous balance; the student gets the next roll number of the new class and section. 400 "Please fill in all required fields before promoting the student" when toClass, toSession or fromSession is missing.',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        body: promoteSchema,
        response: { 200: promoteResponse, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const body = request.body;
      const toClass = normaliseClass(body.toClass);
      if (!toClass) throw badRequest(`Unknown class "${body.toClass.slice(0, 40)}"`);

      return db.transaction(async (tx) => {
        await lockStudentLedger(tx, { schoolId, studentId: request.params.id });
        const student = await findStudentOr404(tx, { schoolId, studentId: request.params.id });
        if (student.status === 'passout') throw conflict(`${student.name} has left the school (passouts) and cannot be promoted`);
        const from = await findSessionByYear(tx, { schoolId, year: body.fromSession });
        if (!from) throw badRequest(`Academic session ${body.fromSession} was not found`);
        const to = await findSessionByYear(tx, { schoolId, year: body.toSession });
        if (!to) throw badRequest(`Academic session ${body.toSession} was not found`);
        if (to.id === from.id) throw badRequest('Choose a different session to promote the student into');
        if (to.startDate <= from.startDate) throw badRequest(`Students can only be promoted into a later session than ${from.name}`);
        if (student.sessionId === to.id) throw conflict(`${student.name} is already in the ${to.name} session`);
        if (student.sessionId && student.sessionId !== from.id) {
          throw conflict(`${student.name} is not in the ${from.name} session: refresh and choose their current session`);
        }
        const placement = await placementIn(tx, student, from);
        if (!placement) throw badRequest(`${student.name} was not enrolled in the ${from.name} session`);
        if (body.fromClass) {
          const fromClass = normaliseClass(body.fromClass);
          if (fromClass && fromClass !== placement.className) {
            throw conflict(`${student.name} is in ${placement.className}, not ${fromClass}: refresh and try again`);
          }
        }

        const throughMonth = from.endDate.slice(0, 7);
        const account = await accountThrough(tx, { schoolId, student, session: from, className: placement.className, throughMonth });
        const monthly = account.tillDate.monthlyOutstanding;
        const yearly = account.tillDate.yearlyOutstanding;
        await recordCarried(tx, {
          schoolId,
          session: from,
          rows: [{ studentId: student.id, className: placement.className, monthly, yearly }],
          throughMonth,
          reason: 'promotion',
          at: now,
        });
        const [carried] = await tx
          .select()
          .from(previousBalances)
          .where(and(eq(previousBalances.schoolId, schoolId), eq(previousBalances.studentId, student.id), eq(previousBalances.sessionId, from.id)));

        const group = { className: toClass, section: student.section };
        const first = await allocateRollNumbers(tx, { schoolId, sessionId: to.id, groups: [{ ...group, count: 1 }] });
        const rollNumber = first.get(rollGroupKey(group))!;
        await tx
          .insert(studentEnrollments)
          .values({ schoolId, studentId: student.id, sessionId: to.id, className: toClass, section: student.section, rollNumber, createdAt: now })
          .onConflictDoUpdate({
            target: [studentEnrollments.schoolId, studentEnrollments.studentId, studentEnrollments.sessionId],
            set: { className: toClass, section: student.section, rollNumber },
          });
        await tx
          .update(students)
          .set({ className: toClass, rollNumber, sessionId: to.id, updatedAt: now })
          .where(and(eq(students.schoolId, schoolId), eq(students.id, student.id)));

        const previousBalance = {
          academicYear: from.name,
          monthlyOutstanding: rupees(Number(carried!.monthlyOutstandingPaise)),
          yearlyOutstanding: rupees(Number(carried!.yearlyOutstandingPaise)),
          balance: rupees(Number(carried!.monthlyOutstandingPaise) + Number(carried!.yearlyOutstandingPaise)),
        };
        await audit(tx, request, {
          action: 'student.promote',
          entity: 'student',
          entityId: student.id,
          before: { className: placement.className, section: placement.section, rollNumber: placement.rollNumber, sessionId: from.id, academicYear: from.name },
          after: { className: toClass, section: student.section, rollNumber, sessionId: to.id, academicYear: to.name, previousBalance },
        });
        return {
          message: `${student.name} has been promoted to ${toClass} (${to.name}).`,
          student: { id: student.id, name: student.name, className: toClass, section: student.section, rollNumber, sessionId: to.id, academicYear: to.name },
          previousBalance,
        };
      });
    },
  );
}
