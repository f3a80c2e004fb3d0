import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toRupeeString } from '../../domain/money';
import { exportPeriodQuery, journalRows, mergeTallyMapping, tallyMappingDto, tallyMappingInput } from '../../domain/tally';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { feeRules, schools } from '../db/schema';
import { audit } from '../lib/audit';
import { csvDocument } from '../lib/csv';
import { badRequest } from '../lib/errors';
import { lockFeeRules } from './fee-rules-row';
import { loadTallyMapping, periodVouchers, tallyXml } from './tally-export';

const MAX_DAYS = 400;
const daysBetween = (a: string, b: string) => (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

export async function tallyRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;

  const checkPeriod = (q: { fromDate: string; toDate: string }) => {
    if (Number.isNaN(daysBetween(q.fromDate, q.toDate))) throw badRequest('Enter valid dates (YYYY-MM-DD)');
    if (daysBetween(q.fromDate, q.toDate) > MAX_DAYS) throw badRequest('Export at most one financial year at a time');
  };

  app.get(
    '/api/exports/tally/mapping',
    { config: { permission: 'tally.export' }, onRequest: requireSchool, schema: { tags: ['fee-policy'], summary: 'Our heads, modes and expense categories → the school’s Tally ledger names', security: [{ bearer: [] }], response: { 200: tallyMappingDto } } },
    async (request) => loadTallyMapping(db, schoolIdOf(request)),
  );

  app.put(
    '/api/exports/tally/mapping',
    { config: { permission: 'fee-policy.manage' }, onRequest: requireSchool, schema: { tags: ['fee-policy'], summary: 'Rename Tally ledgers (any subset; the rest keep their names)', security: [{ bearer: [] }], body: tallyMappingInput, response: { 200: tallyMappingDto, 400: errorDto } } },
    async (request) => {
      const schoolId = schoolIdOf(request);
      return db.transaction(async (tx) => {
        await lockFeeRules(tx, schoolId);
        const before = await loadTallyMapping(tx, schoolId);
        const after = mergeTallyMapping(before, request.body);
        await tx.insert(feeRules).values({ schoolId, tallyMapping: after, updatedAt: clock.now() }).onConflictDoUpdate({ target: feeRules.schoolId, set: { tallyMapping: after, updatedAt: clock.now() } });
        await audit(tx, request, { action: 'fee_rules.tally_mapping', entity: 'fee_rules', entityId: schoolId, before, after });
        return after;
      });
    },
  );

  app.get(
    '/api/exports/tally',
    {
      config: { permission: 'tally.export' }, onRequest: requireSchool,
      schema: {
        tags: ['fee-policy'],
        summary: 'The period as Tally-importable XML: receipts by mode to head ledgers, expenses as payments, cancellations as reversals',
        security: [{ bearer: [] }],
        querystring: exportPeriodQuery,
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { fromDate, toDate } = request.query;
      checkPeriod(request.query);
      const [mapping, [school]] = await Promise.all([loadTallyMapping(db, schoolId), db.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId)).limit(1)]);
      const vouchers = await periodVouchers(db, { schoolId, from: fromDate, to: toDate, mapping });
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="tally-${fromDate}-to-${toDate}.xml"`)
        .send(tallyXml(vouchers, { companyName: school?.name ?? '' }));
    },
  );

  app.get(
    '/api/exports/journal.csv',
    {
      config: { permission: 'tally.export' }, onRequest: requireSchool,
      schema: { tags: ['fee-policy'], summary: 'The same vouchers as a plain double-entry journal (date, voucher no, account, debit, credit, narration)', security: [{ bearer: [] }], querystring: exportPeriodQuery },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { fromDate, toDate } = request.query;
      checkPeriod(request.query);
      const mapping = await loadTallyMapping(db, schoolId);
      const rows = journalRows(await periodVouchers(db, { schoolId, from: fromDate, to: toDate, mapping }));
      const csv = csvDocument([
        ['Date', 'Voucher No', 'Account', 'Debit', 'Credit', 'Narration'],
        ...rows.map((r) => [r.date, r.voucherNumber, r.account, r.debit ? toRupeeString(r.debit) : '', r.credit ? toRupeeString(r.credit) : '', r.narration]),
      ]);
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="journal-${fromDate}-to-${toDate}.csv"`).send(csv);
    },
  );
}
