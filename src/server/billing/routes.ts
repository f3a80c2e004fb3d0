import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessState, type SubscriptionStatus } from '../../domain/plans';
import { billingRows } from '../admin/subscription-routes';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { sessionCache } from '../auth/session-cache';
import { schools } from '../db/schema';
import { findInvoice } from '../invoices/issue';
import { invoicePdf } from '../invoices/invoice-pdf';
import { audit } from '../lib/audit';
import { conflict, notFound } from '../lib/errors';
import { sendPdf } from '../lib/pdf';
import { listPlans } from '../plans/queries';
import { effectiveSchool } from '../plans/timeline';
import { schoolDto, toSchoolDto } from '../schools/queries';
import { cancelledColumns, CHANGE_TEXTS, lockSchool, planSnapshot } from './changes';
import { billingDto, toBillingDto } from './dto';
import { indiaDate } from './mails';
import { startNoticeJob } from './notices';
import { formatDateIN } from '../../domain/dates';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The school's side of its subscription (issue 12 item 3): Settings → Billing. */
export async function billingRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  startNoticeJob(app);

  app.get(
    '/api/billing',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage' },
      schema: {
        tags: ['billing'],
        summary: "The school's plan, status, validity, queued plan, payments and tax invoices (works in a read-only session)",
        security: [{ bearer: [] }],
        response: {
          200: billingDto.extend({
            plan: z.string(),
            planName: z.string(),
            status: z.enum(['trial', 'active', 'expired', 'cancelled']),
            isExpired: z.boolean(),
            validFrom: z.string().nullable(),
            validUntil: z.string().nullable().describe('the trial end during a trial, else the plan end date'),
            daysRemaining: z.number().int().nullable(),
            queuedPlan: z.object({ plan: z.string(), planName: z.string(), startDate: z.string(), endDate: z.string() }).nullable(),
            /** tax invoices need the school's state (and its GSTIN when it has one) in Settings */
            taxDetails: z.object({ state: z.string().nullable(), gstin: z.string().nullable() }),
          }),
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const [stored] = await db.select().from(schools).where(eq(schools.id, schoolId)).limit(1);
      if (!stored) throw notFound(CHANGE_TEXTS.notFound);
      const row = effectiveSchool(stored, now);
      const dto = toSchoolDto(stored, now);
      const names = new Map((await listPlans(db)).map((p) => [p.id, p.name]));
      const trial = row.subscriptionStatus === 'trial';
      const access = accessState({ subscriptionStatus: row.subscriptionStatus as SubscriptionStatus, trialEndsAt: row.trialEndsAt, planEndDate: row.planEndDate }, now);
      return {
        plan: row.subscriptionPlan,
        planName: names.get(row.subscriptionPlan) ?? row.subscriptionPlan,
        status: dto.subscriptionStatus,
        isExpired: dto.isExpired,
        validFrom: trial ? null : iso(row.planStartDate),
        validUntil: trial ? iso(row.trialEndsAt) : iso(row.planEndDate),
        daysRemaining: access.daysRemaining,
        queuedPlan:
          row.queuedPlan && row.queuedStart && row.queuedEnd
            ? { plan: row.queuedPlan, planName: names.get(row.queuedPlan) ?? row.queuedPlan, startDate: row.queuedStart.toISOString(), endDate: row.queuedEnd.toISOString() }
            : null,
        taxDetails: { state: row.state, gstin: row.gstin },
        ...toBillingDto(await billingRows(db, schoolId), (id) => `/api/billing/invoices/${id}/pdf`),
      };
    },
  );

  app.get(
    '/api/billing/invoices/:id/pdf',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage' },
      schema: {
        tags: ['billing'],
        summary: 'One of the school\'s GST tax invoices as PDF',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().uuid('Invoice not found') }),
        response: { 200: z.any().describe('application/pdf'), 404: errorDto },
      },
    },
    async (request, reply) => {
      const invoice = await findInvoice(db, { schoolId: schoolIdOf(request), invoiceId: request.params.id });
      if (!invoice) throw notFound('Invoice not found');
      return sendPdf(reply, await invoicePdf(invoice), `invoice-${invoice.number}.pdf`);
    },
  );

  app.post(
    '/api/billing/cancel',
    {
      onRequest: requireSchool,
      config: { permission: 'billing.manage' },
      schema: {
        tags: ['billing'],
        summary: 'Cancel the plan (ruling 15): no renewal; access continues until the plan end date',
        security: [{ bearer: [] }],
        body: z.object({ reason: z.string().trim().max(500).optional() }).default({}),
        response: { 200: z.object({ message: z.string(), school: schoolDto }), 402: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const updated = await db.transaction(async (tx) => {
        const row = await lockSchool(tx, schoolId);
        if (!row) throw notFound(CHANGE_TEXTS.notFound);
        if (row.subscriptionStatus === 'cancelled') throw conflict(CHANGE_TEXTS.alreadyCancelled);
        if (row.subscriptionStatus !== 'active' || !row.planEndDate || row.planEndDate <= now) throw conflict(CHANGE_TEXTS.nothingToCancel);
        const [next] = await tx.update(schools).set(cancelledColumns(row, false, now)).where(eq(schools.id, schoolId)).returning();
        await audit(tx, request, {
          action: 'subscription.cancel',
          entity: 'school',
          entityId: schoolId,
          before: planSnapshot(row),
          after: { ...planSnapshot(next!), reason: request.body.reason ?? null, by: 'school' },
        });
        return next!;
      });
      sessionCache.forgetSchool(schoolId);
      const end = updated.queuedEnd ?? updated.planEndDate;
      return {
        message: `Your plan is cancelled and will not renew. You keep full access until ${end ? formatDateIN(indiaDate(end)) : 'the end of the paid period'}.`,
        school: toSchoolDto(updated, now),
      };
    },
  );
}
