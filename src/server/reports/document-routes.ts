import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionalDateQuery } from '../../domain/reports';
import { REPORT_TITLES, reportDocumentSchema, type ReportDocument, type ReportKind } from '../../domain/report-document';
import { indiaDate } from '../../domain/sessions';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { boundedReadsBeside } from '../db/client';
import { HttpError } from '../lib/errors';
import { FigureCache } from '../lib/figure-cache';
import { pgCode } from '../lib/pg-errors';
import { WorkGate } from '../lib/work-gate';
import { dataVersionKey } from '../stats/versions';
import { documentCsv, documentXlsx } from './document-exports';
import { documentText } from './document-text';
import { classWiseReport, DEFAULTER_SORTS, monthlyReport, pendingFeesReport, sessionReport, yearlyReport } from './fee-reports';
import { schoolNameOf } from './financial-routes';
import { dayBookReport, incomeExpenseReport } from './money-reports';
import type { ReportContext } from './report-context';
import { BUILD } from './texts';

const tags = ['reports'];
const security = [{ bearer: [] }];

const monthQuery = z
  .string()
  .optional()
  .transform((v, ctx): string | undefined => {
    const text = (v ?? '').trim();
    if (!text) return undefined;
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'month must be written as YYYY-MM' });
      return z.NEVER;
    }
    return text;
  });
const yearQuery = z.string().max(40).optional().describe('the session (2025-2026, 2025-26 or its id); the active one when absent');

interface Spec<Q extends z.ZodTypeAny> {
  kind: ReportKind;
  summary: string;
  description: string;
  query: Q;
  build: (ctx: ReportContext, query: z.output<Q>) => Promise<ReportDocument>;
}

const spec = <Q extends z.ZodTypeAny>(s: Spec<Q>) => s;

/** The reports of the Reports tab: each as JSON (the printable page draws it), Excel and CSV. */
const SPECS = [
  spec({
    kind: 'monthly',
    summary: "Monthly Report: a month's tuition and bus fees by class, money received and expenses of the month",
    description: 'month=YYYY-MM (this month when absent).',
    query: z.object({ month: monthQuery }),
    build: (ctx, q) => monthlyReport(ctx, { month: q.month ?? ctx.today.slice(0, 7) }),
  }),
  spec({
    kind: 'yearly',
    summary: 'Yearly Report: the session month by month, and its yearly fees by head',
    description: 'Outstanding counts months up to this month (ruling 6, till date).',
    query: z.object({ academicYear: yearQuery }),
    build: (ctx, q) => yearlyReport(ctx, q),
  }),
  spec({
    kind: 'class-wise',
    summary: 'Class-wise Report: students, due, received and outstanding per class and section',
    description: 'Till date (ruling 6).',
    query: z.object({ academicYear: yearQuery }),
    build: (ctx, q) => classWiseReport(ctx, q),
  }),
  spec({
    kind: 'income-expense',
    summary: 'Income vs Expense: money received and spent in each month of the session, and expenses by category',
    description: 'Income by payment date from live receipts; expenses by their date.',
    query: z.object({ academicYear: yearQuery }),
    build: (ctx, q) => incomeExpenseReport(ctx, q),
  }),
  spec({
    kind: 'pending-fees',
    summary: 'Pending Fees: the defaulters list, with the months due and the amounts',
    description: 'Every active student with anything outstanding till date (the open session plus carried balances). sort=class (default) or amount; class filters one class.',
    query: z.object({ sort: z.enum(DEFAULTER_SORTS).optional(), class: z.string().max(40).optional() }),
    build: (ctx, q) => pendingFeesReport(ctx, { sort: q.sort ?? 'class', className: q.class?.trim() || undefined }),
  }),
  spec({
    kind: 'session',
    summary: 'Session Report: the whole session by class, with carried balances, income and expenses',
    description: 'Annual horizon: every month of the session.',
    query: z.object({ academicYear: yearQuery }),
    build: (ctx, q) => sessionReport(ctx, q),
  }),
  spec({
    kind: 'day-book',
    summary: 'Day Book: the receipts written on a day by payment mode, and the day’s expenses, with totals',
    description: 'date=YYYY-MM-DD (India date; today when absent). Cancelled receipts are not counted.',
    query: z.object({ date: optionalDateQuery('date') }),
    build: (ctx, q) => dayBookReport(ctx, { date: q.date ?? ctx.today }),
  }),
];

/**
 * Each built document's JSON, written once per build and kept while the cache keeps the document:
 * the printable page's answer is that text. A whole school's defaulters at 60,000 students are
 * 10 MB of JSON, and checking it against the route's schema and writing it again on every request
 * took 0.4 s, cached or not. The builders return typed documents (`ReportDocument`), and a test reads
 * every kind's answer back through the schema, so the text holds nothing the schema does not.
 */
const written = new WeakMap<object, string>();

/** The JSON routes' serializer: the document's text as written when it was built (errors are written as they come). */
const writtenDocument = () => (data: unknown) => (typeof data === 'object' && data !== null && written.get(data)) || JSON.stringify(data);

/**
 * The report pool: a builder's independent reads run at once (up to three), so more builds at once
 * want more; with three, a process holds at most its request pool + 3 + 1 (the notify bus)
 * connections, and four processes stay under PostgreSQL's default 100 less its 3 reserved.
 */
const REPORT_CONNECTIONS = 3;
/** A build's statement that runs longer is ended by PostgreSQL, and its requests answered 503. */
const REPORT_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * Aborts when the client closes the request before its answer was sent. The response's 'close'
 * also comes after a finished answer (and the request's 'close' after every answer), so only a
 * response closed before it finished counts; one already closed when asked counts at once.
 */
function whenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  // nginx's 499, "client closed request": nobody reads it, and the error handler neither logs it nor counts a 5xx
  const leave = () => {
    if (!res.writableFinished) controller.abort(new HttpError(499, BUILD.clientGone));
  };
  if (res.destroyed) leave();
  else res.once('close', leave);
  return controller.signal;
}

export async function documentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  // builds read through a small pool of their own with a statement timeout (PostgreSQL; on the embedded database, db itself)
  const reads = boundedReadsBeside(db, { max: REPORT_CONNECTIONS, statementTimeoutMs: REPORT_STATEMENT_TIMEOUT_MS });
  app.addHook('onClose', () => reads.close());

  const contextFor = async (schoolId: string): Promise<ReportContext> => {
    const now = clock.now();
    return { db: reads.db, schoolId, schoolName: await schoolNameOf(reads.db, schoolId), today: indiaDate(now), generatedAt: now.toISOString() };
  };
  // the India date the document was made, never the UTC one (issue item 11)
  const fileName = (doc: ReportDocument, ext: string) => `${doc.kind}-report-${indiaDate(new Date(doc.generatedAt))}.${ext}`;

  // A report is built once per change of the school's data: the printable page, then its Excel and
  // CSV downloads, or several people opening the same list, share one build (decision 0011). Never
  // served stale: a build after a change is always waited for.
  const documents = new FigureCache<ReportDocument>(60_000, 8);
  // whole-school builds read a whole session's balances: a few at a time (REPORT_BUILDS, half the
  // cores by default), so a burst of them never takes the connections (decision 0042) nor the cores
  // (decision 0094) the counter's lookups and saves need. A build whose every requester has gone
  // leaves the queue (FigureCache aborts its signal) and never starts.
  const builds = new WorkGate(app.deps.config.reportBuilds);

  for (const s of SPECS) {
    const build = s.build as (ctx: ReportContext, q: unknown) => Promise<ReportDocument>;
    const make = async (schoolId: string, query: unknown, gone: AbortSignal) => {
      const version = `${await dataVersionKey(db, schoolId, Date.now())}|${indiaDate(clock.now())}`;
      const compute = (abandoned: AbortSignal) =>
        builds.run(async () => {
          const doc = await build(await contextFor(schoolId), query);
          written.set(doc, documentText(doc));
          return doc;
        }, abandoned);
      try {
        return await documents.get(`${schoolId}|${s.kind}|${JSON.stringify(query)}`, version, clock.now().getTime(), compute, gone);
      } catch (error) {
        // 57014: PostgreSQL ended a statement (the report pool's timeout, or an operator's cancel)
        if (pgCode(error) === '57014') throw new HttpError(503, BUILD.tooLong);
        throw error;
      }
    };
    app.get(
      `/api/reports/${s.kind}`,
      {
        onRequest: requireSchool,
        config: { permission: 'reports.view' },
        schema: { tags, summary: s.summary, description: s.description, security, querystring: s.query, response: { 200: reportDocumentSchema, 400: errorDto, 503: errorDto } },
        serializerCompiler: writtenDocument,
      },
      async (request, reply) => make(schoolIdOf(request), request.query, whenClientLeaves(reply)),
    );
    for (const ext of ['xlsx', 'csv'] as const) {
      app.get(
        `/api/reports/${s.kind}.${ext}`,
        {
          onRequest: requireSchool,
          config: { permission: 'reports.view' },
          schema: {
            tags,
            summary: `${REPORT_TITLES[s.kind]} as ${ext === 'xlsx' ? 'an Excel workbook' : 'CSV'}`,
            description: s.description,
            security,
            querystring: s.query,
            produces: [ext === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv'],
            response: { 400: errorDto, 503: errorDto },
          },
        },
        async (request, reply: FastifyReply) => {
          const doc = await make(schoolIdOf(request), request.query, whenClientLeaves(reply));
          reply
            .header('content-disposition', `attachment; filename="${fileName(doc, ext)}"`)
            .header('cache-control', 'no-store')
            .type(ext === 'xlsx' ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8');
          return ext === 'xlsx' ? documentXlsx(doc) : documentCsv(doc);
        },
      );
    }
  }
}


