import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { compareClasses } from '../../domain/classes';
import { paise, toRupeeString } from '../../domain/money';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { audit } from '../lib/audit';
import { notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { findSession, sessionDto, toSessionDto } from './queries';
import { startPreview, startSession, undoStart } from './start';
import { startTexts } from './texts';

const NOT_FOUND = 'Academic session not found';
const params = z.object({ id: z.string() });
const money = z.string().describe('rupees, "1500.00"');

const previewDto = z.object({
  from: z.object({ id: z.string(), sessionName: z.string() }),
  to: z.object({ id: z.string(), sessionName: z.string() }),
  opensOn: z.string().describe('YYYY-MM-DD: the first day of the running session\'s last month, when the start is allowed'),
  open: z.boolean().describe('false: starting now needs early=true'),
  throughMonth: z.string().describe('YYYY-MM: the dues of months up to this one are carried'),
  totals: z.object({ students: z.number().int(), promoted: z.number().int(), graduating: z.number().int(), withBalance: z.number().int(), carried: money }),
  classes: z.array(z.object({ fromClass: z.string(), toClass: z.string().nullable(), students: z.number().int(), carried: money })),
  students: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      fromClass: z.string(),
      section: z.string(),
      rollNumber: z.number().int(),
      toClass: z.string().nullable().describe('null: passes out'),
      carriedMonthly: money,
      carriedYearly: money,
      carried: money,
    }),
  ),
});

export async function sessionStartRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const security = [{ bearer: [] }];

  const sessionOr404 = async (schoolId: string, id: string) => {
    const row = isUuid(id) ? await findSession(db, { schoolId, id }) : undefined;
    if (!row) throw notFound(NOT_FOUND);
    return row;
  };

  app.get(
    '/api/academic-sessions/:id/start-preview',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage', allowWhenExpired: true },
      schema: {
        tags: ['academic sessions'],
        summary: 'What starting this session would do: who moves where, who passes out, what each carries',
        description: 'Read only. 409 when the session was already started or does not start after the running one.',
        security,
        params,
        response: { 200: previewDto, 400: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const to = await sessionOr404(schoolId, request.params.id);
      const p = await startPreview(db, { schoolId, to, today: indiaDate(clock.now()) });
      const carriedOf = (r: (typeof p.rows)[number]) => r.carriedMonthly + r.carriedYearly;
      const classes = new Map<string, { fromClass: string; toClass: string | null; students: number; carried: number }>();
      for (const r of p.rows) {
        const c = classes.get(r.fromClass) ?? { fromClass: r.fromClass, toClass: r.toClass, students: 0, carried: 0 };
        c.students += 1;
        c.carried += carriedOf(r);
        classes.set(r.fromClass, c);
      }
      const rupees = (n: number) => toRupeeString(paise(n));
      return {
        from: { id: p.running.id, sessionName: p.running.name },
        to: { id: to.id, sessionName: to.name },
        opensOn: p.opensOn,
        open: p.open,
        throughMonth: p.throughMonth,
        totals: {
          students: p.rows.length,
          promoted: p.rows.filter((r) => r.toClass).length,
          graduating: p.rows.filter((r) => !r.toClass).length,
          withBalance: p.rows.filter((r) => carriedOf(r) > 0).length,
          carried: rupees(p.rows.reduce((s, r) => s + carriedOf(r), 0)),
        },
        classes: [...classes.values()].sort((a, b) => compareClasses(a.fromClass, b.fromClass)).map((c) => ({ ...c, carried: rupees(c.carried) })),
        students: [...p.rows].sort((a, b) => compareClasses(a.fromClass, b.fromClass) || a.section.localeCompare(b.section) || a.rollNumber - b.rollNumber).map((r) => ({
          id: r.id,
          name: r.name,
          fromClass: r.fromClass,
          section: r.section,
          rollNumber: r.rollNumber,
          toClass: r.toClass,
          carriedMonthly: rupees(r.carriedMonthly),
          carriedYearly: rupees(r.carriedYearly),
          carried: rupees(carriedOf(r)),
        })),
      };
    },
  );

  app.post(
    '/api/academic-sessions/:id/start',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['academic sessions'],
        summary: 'Start this session: promote every active student of the running session into it (one transaction)',
        description:
          'Allowed from the first day of the running session\'s last month; earlier only with early=true. Carries the dues of the months already due (ruling 6), makes this session the active one, and can be undone until its first receipt.',
        security,
        params,
        body: z.object({ early: z.boolean().optional().default(false) }).optional().default({ early: false }),
        response: {
          200: z.object({ message: z.string(), session: sessionDto, summary: z.object({ promoted: z.number().int(), graduated: z.number().int(), balancesCarried: z.number().int(), carried: money }) }),
          400: errorDto,
          402: errorDto,
          404: errorDto,
          409: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const to = await sessionOr404(schoolId, request.params.id);
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const started = await startSession(tx, {
          schoolId,
          to,
          today: indiaDate(now),
          early: request.body.early,
          actor: { userId: request.auth?.userId ?? null, ip: request.ip, now },
        });
        await audit(tx, request, { action: 'academic_session.start', entity: 'academic_session', entityId: to.id, before: { activeSession: started.from.name }, after: { activeSession: to.name, early: request.body.early } });
        return started;
      });
      return {
        message: startTexts.started(to.name, result.summary.promoted, result.summary.graduated),
        session: toSessionDto(result.session),
        summary: {
          promoted: result.summary.promoted,
          graduated: result.summary.graduated,
          balancesCarried: result.summary.balancesCarried,
          carried: toRupeeString(paise(result.summary.totalCarriedPaise)),
        },
      };
    },
  );

  app.post(
    '/api/academic-sessions/:id/undo-start',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['academic sessions'],
        summary: 'Undo the start of this session, until its first receipt',
        description: 'Every student goes back to the class, section, roll number and session they had; graduates come back from passouts; the balances the start carried are removed; the earlier session is active again. 409 once a receipt was saved in this session, a student was discharged from it or admitted into it.',
        security,
        params,
        response: { 200: z.object({ message: z.string(), session: sessionDto, restored: z.number().int() }), 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const to = await sessionOr404(schoolId, request.params.id);
      const now = clock.now();
      const result = await db.transaction((tx) => undoStart(tx, { schoolId, to, actor: { userId: request.auth?.userId ?? null, ip: request.ip, now } }));
      return { message: startTexts.undone(result.session.name, result.restored), session: toSessionDto(result.session), restored: result.restored };
    },
  );
}
