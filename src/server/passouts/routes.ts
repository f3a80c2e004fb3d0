import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { normaliseClass } from '../../domain/classes';
import { dischargeSchema, passoutsFromClassSchema } from '../../domain/ledger';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { schools, students } from '../db/schema';
import { money, rupees } from '../fees/dto';
import { lockSchoolLedger, lockStudentLedger } from '../fees/locks';
import { carriedBalances, findStudentOr404 } from '../fees/queries';
import { badRequest, conflict } from '../lib/errors';
import { sendPdf } from '../lib/pdf';
import { classOrderSql } from '../students/class-order';
import { listPassouts, moveToPassouts, passoutDto } from './queries';
import { passoutBalanceCsv, passoutBalancePdf } from './report';

const yearQuery = z.object({
  graduationYear: z.coerce.number().int().min(1900).max(2100).optional().describe('only this graduation year (the All Years filter when absent)'),
});

export async function passoutRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  const actorOf = (request: { auth: { userId: string } | null; ip: string }) => ({ userId: request.auth?.userId ?? null, ip: request.ip });

  app.post(
    '/api/students/:id/discharge',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags: ['passouts'],
        summary: 'Discharge a student: move them to passouts with their outstanding fees (irreversible)',
        description:
          'The student\'s outstanding in their session up to the current month ("till date", ruling 6) is carried as a balance that stays collectable through Record Fee Payment (previous_balance). Graduation year: the year of discharge. reason defaults to "Discharged from {class} class".',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        body: dischargeSchema,
        response: { 200: z.object({ message: z.string(), passout: passoutDto }), 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const studentId = await db.transaction(async (tx) => {
        await lockStudentLedger(tx, { schoolId, studentId: request.params.id });
        const student = await findStudentOr404(tx, { schoolId, studentId: request.params.id });
        if (student.status === 'passout') throw conflict(`${student.name} has already been moved to passouts`);
        await moveToPassouts(tx, {
          schoolId,
          people: [student],
          leaving: {
            kind: 'discharged',
            graduationYear: Number(indiaDate(now).slice(0, 4)),
            reason: (s) => request.body.reason || `Discharged from ${s.className} class`,
            now,
            ...actorOf(request),
          },
        });
        return student.id;
      });
      const passout = (await listPassouts(db, { schoolId })).find((p) => p.studentId === studentId)!;
      return { message: 'Student has been successfully discharged and moved to passouts.', passout };
    },
  );

  app.get(
    '/api/passouts',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags: ['passouts'],
        summary: 'Passouts with their outstanding balances, newest graduation year first, by name',
        security: [{ bearer: [] }],
        querystring: yearQuery,
        response: { 200: z.array(passoutDto), 400: errorDto },
      },
    },
    async (request) => listPassouts(db, { schoolId: schoolIdOf(request), graduationYear: request.query.graduationYear }),
  );

  app.get(
    '/api/passouts/classes',
    {
      onRequest: requireSchool,
      config: { permission: 'students.view' },
      schema: {
        tags: ['passouts'],
        summary: 'Classes with active students and their counts (the Create Passouts from Class selector)',
        security: [{ bearer: [] }],
        response: { 200: z.array(z.object({ className: z.string(), count: z.number().int() })) },
      },
    },
    async (request) => {
      const rows = await db
        .select({ className: students.className, count: count() })
        .from(students)
        .where(and(eq(students.schoolId, schoolIdOf(request)), eq(students.status, 'active')))
        .groupBy(students.className)
        .orderBy(classOrderSql(students.className), asc(students.className));
      return rows.map((r) => ({ className: r.className, count: Number(r.count) }));
    },
  );

  app.post(
    '/api/passouts/from-class',
    {
      onRequest: requireSchool,
      config: { permission: 'students.edit' },
      schema: {
        tags: ['passouts'],
        summary: 'Create Passouts from Class: every active student of the class (all sections) moves to passouts',
        description: 'Each student\'s outstanding up to the current month is carried as a collectable balance. Answers the message "Passouts Created Successfully" and the count.',
        security: [{ bearer: [] }],
        body: passoutsFromClassSchema,
        response: {
          200: z.object({ message: z.string(), className: z.string(), graduationYear: z.number().int(), count: z.number().int(), totalOutstanding: money }),
          400: errorDto,
          402: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const { graduationYear } = request.body;
      const className = normaliseClass(request.body.className) ?? request.body.className;
      const carried = await db.transaction(async (tx) => {
        await lockSchoolLedger(tx, { schoolId });
        const people = await tx
          .select()
          .from(students)
          .where(and(eq(students.schoolId, schoolId), eq(students.status, 'active'), eq(students.className, className)));
        if (people.length === 0) throw badRequest(`There are no active students in ${className}`);
        await moveToPassouts(tx, {
          schoolId,
          people,
          leaving: { kind: 'graduated', graduationYear, reason: (s) => `Graduated from ${s.className}`, now, ...actorOf(request) },
        });
        // what the Passouts list shows for them: every carried balance still owed, earlier sessions' too
        const moved = new Set(people.map((p) => p.id));
        const owed = (await carriedBalances(tx, { schoolId })).filter((c) => moved.has(c.studentId));
        return { count: people.length, total: owed.reduce((s, c) => s + c.remaining, 0) };
      });
      return {
        message: 'Passouts Created Successfully',
        className,
        graduationYear,
        count: carried.count,
        totalOutstanding: rupees(carried.total),
      };
    },
  );

  const reportRoute = (format: 'csv' | 'pdf') =>
    app.get(
      `/api/passouts/balance-report.${format}`,
      {
        onRequest: requireSchool,
        config: { permission: 'reports.view' },
        schema: {
          tags: ['passouts'],
          summary: `Download Balance Report (${format.toUpperCase()}): every passout with monthly, yearly and total outstanding`,
          security: [{ bearer: [] }],
          querystring: yearQuery,
          response: { 200: z.any().describe(format === 'csv' ? 'text/csv' : 'application/pdf') },
        },
      },
      async (request, reply) => {
        const schoolId = schoolIdOf(request);
        const rows = await listPassouts(db, { schoolId, graduationYear: request.query.graduationYear });
        const suffix = request.query.graduationYear ? `-${request.query.graduationYear}` : '';
        if (format === 'csv') {
          return reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="passout-balance-report${suffix}.csv"`)
            .header('cache-control', 'no-store')
            .send(passoutBalanceCsv(rows));
        }
        const [school] = await db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)).limit(1);
        return sendPdf(reply, await passoutBalancePdf(rows, school!, clock.now()), `passout-balance-report${suffix}.pdf`);
      },
    );
  reportRoute('csv');
  reportRoute('pdf');
}

