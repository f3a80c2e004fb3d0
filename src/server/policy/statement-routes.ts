import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { defaultSession } from '../fees/context';
import { findStudentOr404, requireSessionByYear } from '../fees/queries';
import { notFound } from '../lib/errors';
import { safeFileName, sendPdf } from '../lib/pdf';
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
        querystring: z.object({ academicYear: z.string().trim().min(1, 'Choose the academic session'), className: z.string().trim().min(1, 'Choose a class') }),
        response: { 200: z.any().describe('application/pdf'), 400: errorDto, 404: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const session = await requireSessionByYear(db, { schoolId, year: request.query.academicYear });
      const statements = await loadStatements(db, { schoolId, session, className: request.query.className, now });
      if (statements.length === 0) throw notFound(`No students of ${request.query.className} in the ${session.name} session`);
      return sendPdf(reply, await statementsPdf(db, { schoolId, session, statements, now }), `statements-${safeFileName(request.query.className)}-${session.name}.pdf`);
    },
  );
}
