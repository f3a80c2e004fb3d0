import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { defaultSession } from '../fees/context';
import { findStudentOr404, requireSessionByYear } from '../fees/queries';
import { notFound } from '../lib/errors';
import { safeFileName, sendPdf } from '../lib/pdf';
import { indiaDate } from '../../domain/sessions';
import { classWiseReport } from '../reports/fee-reports';
import { schoolNameOf } from '../reports/financial-routes';
import { reportSession } from '../reports/report-context';
import { outstandingByClassPdf } from './outstanding-by-class';
import { loadStatements, statementsPdf } from './statement';

export async function statementRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  app.get(
    '/api/students/:id/statement.pdf',
    {
      config: { permission: 'fees.view' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: "A student's one-page fee statement for a session (dues by head, concessions, fines, payments, balance)",
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        querystring: z.object({ academicYear: z.string().optional() }),
        response: { 200: z.any().describe('application/pdf'), 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const student = await findStudentOr404(db, { schoolId, studentId: request.params.id });
      const session = request.query.academicYear ? await requireSessionByYear(db, { schoolId, year: request.query.academicYear }) : await defaultSession(db, student);
      const statements = await loadStatements(db, { schoolId, session, studentId: student.id, now });
      if (statements.length === 0) throw notFound(`${student.name} was not enrolled in the ${session.name} session`);
      return sendPdf(reply, await statementsPdf(db, { schoolId, session, statements, now }), `statement-${safeFileName(student.name)}-${session.name}.pdf`);
    },
  );

  app.get(
    '/api/statements.pdf',
    {
      config: { permission: 'reports.view' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Fee statements of a whole class for a session: one PDF, a page per student',
        security: [{ bearer: [] }],
        querystring: z.object({
          academicYear: z.string().trim().min(1, 'Choose the academic session'),
          className: z.string().trim().min(1, 'Choose a class'),
          section: z.string().trim().max(20).optional().describe('one section of the class; every section when absent'),
        }),
        response: { 200: z.any().describe('application/pdf'), 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const session = await requireSessionByYear(db, { schoolId, year: request.query.academicYear });
      const { className, section } = request.query;
      const statements = await loadStatements(db, { schoolId, session, className, section: section || undefined, now });
      if (statements.length === 0) throw notFound(`No students of ${className}${section ? ` ${section}` : ''} in the ${session.name} session`);
      return sendPdf(reply, await statementsPdf(db, { schoolId, session, statements, now }), `statements-${safeFileName(request.query.className)}-${session.name}.pdf`);
    },
  );

  app.get(
    '/api/reports/outstanding-by-class.pdf',
    {
      config: { permission: 'reports.view' },
      onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'Year-end: outstanding fees by class and section on one page, with signature lines for the accountant and the principal',
        description: 'The class-wise report\'s figures (Due till date − Concession − Received = Outstanding on every row); the active session when academicYear is absent.',
        security: [{ bearer: [] }],
        querystring: z.object({ academicYear: z.string().max(40).optional() }),
        response: { 200: z.any().describe('application/pdf'), 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const today = indiaDate(now);
      const session = await reportSession(db, { schoolId, academicYear: request.query.academicYear });
      const report = await classWiseReport(
        { db, schoolId, schoolName: await schoolNameOf(db, schoolId), today, generatedAt: now.toISOString() },
        { academicYear: session.id },
      );
      return sendPdf(reply, await outstandingByClassPdf(report, { sessionName: session.name, today }), `outstanding-by-class-${session.name}.pdf`);
    },
  );
}
