import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { indiaDate, normaliseAcademicYear } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import type { Db } from '../db/client';
import { findSessionByYear } from '../fees/queries';
import { badRequest, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { sendPdf } from '../lib/pdf';
import { sendTable } from '../lib/xlsx-table';
import { schoolNameOf } from '../reports/financial-routes';
import { concessionRegisterDto, concessionRegisterPdf, concessionRegisterQuery, loadConcessionRegister, REGISTER_COLUMNS, registerCells, registerTotalsCells } from './concession-register';

/** A session named in the query: 400 when it cannot be a session's year, 404 when the school has none of that year. */
async function registerSession(db: Db, schoolId: string, academicYear: string) {
  const session = await findSessionByYear(db, { schoolId, year: academicYear });
  if (session) return session;
  if (!isUuid(academicYear) && !normaliseAcademicYear(academicYear)) throw badRequest(`academicYear must be a session such as 2025-2026, not ${academicYear.slice(0, 20)}`);
  throw notFound(`Academic session ${academicYear.slice(0, 20)} was not found`);
}

const registerSchema = {
  tags: ['fee-policy'],
  security: [{ bearer: [] }],
  querystring: concessionRegisterQuery,
};

/** The concession register (issue 16 item 1) as JSON, PDF and CSV. See docs/api/fee-policy.md. */
export async function concessionRegisterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  const load = async (schoolId: string, query: z.infer<typeof concessionRegisterQuery>, now: Date) => {
    const session = await registerSession(db, schoolId, query.academicYear);
    return loadConcessionRegister(db, { schoolId, session, status: query.status, now });
  };

  app.get(
    '/api/reports/concession-register',
    {
      config: { permission: 'reports.view' },
      onRequest: requireSchool,
      schema: {
        ...registerSchema,
        summary: 'The concession register of a session: who got which concession, how much (till date and for the session), requested and approved by whom',
        description:
          'Approved concessions by default (status=requested, rejected or all for the others), sorted by class, section and roll. The amounts are those of fee status to the paisa; a concession not approved grants 0.00.',
        response: { 200: concessionRegisterDto, 400: errorDto, 404: errorDto },
      },
    },
    (request) => load(schoolIdOf(request), request.query, clock.now()),
  );

  app.get(
    '/api/reports/concession-register.pdf',
    {
      config: { permission: 'reports.view' },
      onRequest: requireSchool,
      schema: { ...registerSchema, summary: 'The concession register as a PDF with totals and signature lines', response: { 200: z.any().describe('application/pdf'), 400: errorDto, 404: errorDto } },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const [register, schoolName] = await Promise.all([load(schoolId, request.query, now), schoolNameOf(db, schoolId)]);
      return sendPdf(reply, await concessionRegisterPdf(register, { schoolName, today: indiaDate(now) }), `concession-register-${register.academicYear}.pdf`);
    },
  );

  app.get(
    '/api/reports/concession-register.csv',
    {
      config: { permission: 'reports.view' },
      onRequest: requireSchool,
      schema: { ...registerSchema, summary: 'The concession register as CSV, a totals line last' },
    },
    async (request, reply) => {
      const register = await load(schoolIdOf(request), request.query, clock.now());
      const rows = [...register.rows.map(registerCells), registerTotalsCells(register)];
      return sendTable(reply, 'csv', `concession-register-${register.academicYear}`, `Concession register ${register.academicYear}`, REGISTER_COLUMNS, rows);
    },
  );
}
