import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { splitInclusive } from '../../domain/invoices';
import { parseRupees } from '../../domain/money';
import { addPeriod, applyRenewal, extendedEnd, PLAN_IDS, type PlanId, type SubscriptionStatus } from '../../domain/plans';
import {
  activationSchema,
  cancelSchema,
  changePlanSchema,
  editSubscriptionSchema,
  extendSchema,
  managePlanSchema,
  offlinePaymentSchema,
  parseDateInput,
  SUBSCRIPTION_TEXTS,
} from '../../domain/subscriptions';
import { requireMaster } from '../auth/context';
import { errorDto } from '../auth/dto';
import { sessionCache } from '../auth/session-cache';
import { billingDto, toBillingDto } from '../billing/dto';
import { cancelledColumns, CHANGE_TEXTS, lockSchool, planSnapshot, revokeSchoolSessions } from '../billing/changes';
import type { Db } from '../db/client';
import { invoices, schools, subscriptionPayments } from '../db/schema';
import { issueInvoice, listInvoices } from '../invoices/issue';
import { invoicePdf } from '../invoices/invoice-pdf';
import { audit } from '../lib/audit';
import { badRequest, conflict, HttpError, notFound } from '../lib/errors';
import { sendPdf } from '../lib/pdf';
import { REFUSALS } from '../payments/messages';
import { quote } from '../payments/queries';
import { findPlan } from '../plans/queries';
import { timelineColumns, timelineOf } from '../plans/timeline';
import { schoolDto, toSchoolDto, type SchoolRow } from '../schools/queries';
import { earlierRequest, keepRequestKey, requestKey, type RequestKey } from './request-keys';

const params = z.object({ id: z.string().uuid('School not found') });
const answer = z.object({ message: z.string(), school: schoolDto });

/** A master's write is recorded against the school it changes, with the master's id and the reason. */
function masterActor(request: FastifyRequest, schoolId: string) {
  return { schoolId, userId: request.auth!.userId, ip: request.ip };
}

/** What the OpenAPI document says of the keyed actions (ruling 5). */
const KEYED =
  'Idempotent on clientId (ruling 5): the same clientId with the same fields answers 200 as the first request did and writes nothing; ' +
  'the same clientId with another action or other fields is refused with 409.';

const CLEAR_QUEUE = { queuedPlan: null, queuedStart: null, queuedEnd: null, queuedValuePaise: null };

/**
 * The subscription actions of the master portal (platform §6–§7, issue 12): each runs in one
 * transaction under the school's row lock, is audited with the master's id and a required reason,
 * and forgets the school's remembered sessions once committed, so its writes are allowed or
 * refused (402) from the next request on.
 */
export async function adminSubscriptionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;

  async function knownPlan(tx: Db, plan: string): Promise<PlanId> {
    const id = plan.replace(/-monthly$/, '');
    if (!(PLAN_IDS as readonly string[]).includes(id) || !(await findPlan(tx, id))) throw badRequest(CHANGE_TEXTS.unknownPlan(plan));
    return id as PlanId;
  }

  /**
   * Locks the school, runs the change, audits it, and answers with the school as it now stands.
   * With `key` (ruling 5), a request already made with that key changes nothing and answers with the
   * school as it stands; the key is kept with the change.
   */
  async function change(
    request: FastifyRequest,
    schoolId: string,
    action: string,
    reason: string,
    apply: (tx: Db, row: SchoolRow, now: Date) => Promise<Partial<SchoolRow> | null>,
    key: RequestKey | null = null,
  ): Promise<SchoolRow> {
    const now = clock.now();
    const { school, changed } = await db.transaction(async (tx) => {
      const row = await lockSchool(tx, schoolId);
      if (!row) throw notFound(CHANGE_TEXTS.notFound);
      if (await earlierRequest(tx, schoolId, key)) return { school: row, changed: false };
      const columns = await apply(tx, row, now);
      const [next] = columns ? await tx.update(schools).set({ ...columns, updatedAt: now }).where(eq(schools.id, schoolId)).returning() : [row];
      await audit(tx, masterActor(request, schoolId), {
        action,
        entity: 'school',
        entityId: schoolId,
        before: planSnapshot(row),
        after: { ...planSnapshot(next!), reason },
      });
      await keepRequestKey(tx, schoolId, key, now);
      return { school: next!, changed: true };
    });
    if (changed) sessionCache.forgetSchool(schoolId);
    return school;
  }

  const common = { onRequest: requireMaster, schema: { tags: ['admin'], security: [{ bearer: [] }] } } as const;
  const errors = { 400: errorDto, 401: errorDto, 403: errorDto, 404: errorDto, 409: errorDto };

  app.get(
    '/api/admin/schools/subscriptions',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Every school with its plan, status (expired once its end date passed), valid-until date and days left (master administrator)',
        response: { 200: z.array(schoolDto) },
      },
    },
    async () => {
      const now = clock.now();
      const rows = await db.select().from(schools).orderBy(desc(schools.createdAt));
      return rows.map((r) => toSchoolDto(r, now));
    },
  );

  /** The plan and dates a master sets directly: a changed plan is a grant, worth nothing to a later upgrade's credit. */
  function setPlan(row: SchoolRow, plan: PlanId, status: SubscriptionStatus, start: Date | null, end: Date | null) {
    const planChanged = plan !== row.subscriptionPlan;
    return {
      subscriptionPlan: plan,
      subscriptionStatus: status,
      planStartDate: start,
      planEndDate: end,
      ...(status === 'trial' && end ? { trialEndsAt: end } : {}),
      ...(planChanged ? { planValuePaise: 0, planValueFrom: start, ...CLEAR_QUEUE } : {}),
    };
  }

  app.put(
    '/api/admin/schools/:id/plan',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: "Manage School Plan: set a school's plan, status and dates (start defaults to now; no end date means open-ended)",
        params,
        body: managePlanSchema,
        response: { 200: answer, ...errors },
      },
    },
    async (request) => {
      const { plan, status, startDate, endDate, reason } = request.body;
      const school = await change(request, request.params.id, 'subscription.set-plan', reason, async (tx, row, now) => {
        const id = await knownPlan(tx, plan);
        return setPlan(row, id, status, startDate ? parseDateInput(startDate) : now, endDate ? parseDateInput(endDate) : null);
      });
      return { message: 'Plan Updated', school: toSchoolDto(school, clock.now()) };
    },
  );

  app.put(
    '/api/admin/schools/:id/subscription',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Edit Subscription: plan, status and dates as given (null clears a date)',
        params,
        body: editSubscriptionSchema,
        response: { 200: answer, ...errors },
      },
    },
    async (request) => {
      const { subscriptionPlan, subscriptionStatus, planStartDate, planEndDate, reason } = request.body;
      const school = await change(request, request.params.id, 'subscription.edit', reason, async (tx, row) => {
        const id = await knownPlan(tx, subscriptionPlan);
        const start = planStartDate === undefined ? row.planStartDate : planStartDate === null ? null : parseDateInput(planStartDate);
        const end = planEndDate === undefined ? row.planEndDate : planEndDate === null ? null : parseDateInput(planEndDate);
        return setPlan(row, id, subscriptionStatus, start, end);
      });
      return { message: 'Subscription Updated', school: toSchoolDto(school, clock.now()) };
    },
  );

  app.post(
    '/api/admin/schools/:id/cancel',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Cancel (ruling 15): no renewal, access continues until the plan end date; endAccessNow ends it now',
        params,
        body: cancelSchema,
        response: { 200: answer, ...errors },
      },
    },
    async (request) => {
      const { endAccessNow, reason } = request.body;
      const school = await change(request, request.params.id, 'subscription.cancel', reason, async (_tx, row, now) => {
        if (row.subscriptionStatus === 'cancelled' && !endAccessNow) throw conflict(CHANGE_TEXTS.alreadyCancelled);
        return cancelledColumns(row, endAccessNow, now);
      });
      return { message: 'Subscription Cancelled', school: toSchoolDto(school, clock.now()) };
    },
  );

  app.post(
    '/api/admin/schools/:id/extend',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Extend by 1–365 days: a trial from its trial end, a plan from its end date (or from now when that has passed)',
        description: KEYED,
        params,
        body: extendSchema,
        response: { 200: answer, ...errors },
      },
    },
    async (request) => {
      const { clientId, ...fields } = request.body;
      const { days, reason } = fields;
      const action = 'subscription.extend';
      const school = await change(request, request.params.id, action, reason, async (_tx, row, now) => {
        if (row.subscriptionStatus === 'trial') return { trialEndsAt: extendedEnd(row.trialEndsAt, days, now) };
        const end = extendedEnd(row.planEndDate, days, now);
        const shift = end.getTime() - (row.planEndDate?.getTime() ?? end.getTime());
        return {
          planEndDate: end,
          // an ended plan runs again; a cancelled one stays cancelled (no renewal), with more time
          subscriptionStatus: row.subscriptionStatus === 'expired' ? ('active' as const) : row.subscriptionStatus,
          planStartDate: row.planStartDate ?? now,
          ...(row.queuedStart && row.queuedEnd && shift > 0
            ? { queuedStart: new Date(row.queuedStart.getTime() + shift), queuedEnd: new Date(row.queuedEnd.getTime() + shift) }
            : {}),
        };
      }, requestKey(clientId, action, fields));
      return { message: 'Subscription Extended', school: toSchoolDto(school, clock.now()) };
    },
  );

  app.post(
    '/api/admin/schools/:id/change-plan',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Change plan: the new plan runs from now for one month (isMonthly) or one year',
        description: KEYED,
        params,
        body: changePlanSchema,
        response: { 200: answer, ...errors },
      },
    },
    async (request) => {
      const { clientId, ...fields } = request.body;
      const { newPlan, isMonthly, reason } = fields;
      const action = 'subscription.change-plan';
      const school = await change(request, request.params.id, action, reason, async (tx, row, now) => {
        const id = await knownPlan(tx, newPlan);
        return {
          ...setPlan({ ...row, subscriptionPlan: '' }, id, 'active', now, addPeriod(now, isMonthly ? 'monthly' : 'yearly')),
        };
      }, requestKey(clientId, action, fields));
      return { message: 'Plan Changed', school: toSchoolDto(school, clock.now()) };
    },
  );

  app.post(
    '/api/admin/schools/:id/offline-payment',
    {
      ...common,
      schema: {
        ...common.schema,
        summary: 'Record a cheque, NEFT or UPI payment: it buys the plan as an online order would (ruling 28) and gets the same tax invoice',
        description: `amount is what was received, GST included; the invoice splits it into taxable value and 18% GST. ${KEYED} A replay answers with the invoice the first request issued.`,
        params,
        body: offlinePaymentSchema,
        response: { 200: answer.extend({ invoice: z.object({ id: z.string(), number: z.string() }) }), ...errors },
      },
    },
    async (request) => {
      const { clientId, ...fields } = request.body;
      const { plan, billingCycle, amount, mode, reference, date, reason } = fields;
      const schoolId = request.params.id;
      const now = clock.now();
      const paidOn = parseDateInput(date);
      if (paidOn.getTime() > now.getTime()) throw badRequest(SUBSCRIPTION_TEXTS.futureDate);
      const received = parseRupees(amount)!;
      const action = 'subscription.offline-payment';
      // "3540", "3540.00" and 3540 are the same amount received
      const key = requestKey(clientId, action, { ...fields, amount: received });
      const result = await db.transaction(async (tx) => {
        const row = await lockSchool(tx, schoolId);
        if (!row) throw notFound(CHANGE_TEXTS.notFound);
        const earlier = await earlierRequest(tx, schoolId, key);
        if (earlier) return { school: row, invoice: await invoiceOfPayment(tx, earlier.paymentId), recorded: false };
        const planId = await knownPlan(tx, plan);
        const quoted = await quote(tx, { ...row, hasPaidSubscription: true }, planId, billingCycle, now);
        if (!quoted) throw badRequest(CHANGE_TEXTS.unknownPlan(plan));
        if ('refused' in quoted) throw new HttpError(409, REFUSALS[quoted.refused], { reason: quoted.refused });
        const { taxable, gst } = splitInclusive(received);
        // what was received (before GST) is what the period is worth: a later upgrade is credited from it
        const bought = { ...quoted.quote, value: taxable };
        const timeline = applyRenewal(timelineOf(row), bought, now);
        const [school] = await tx
          .update(schools)
          .set({ ...timelineColumns(timeline), subscriptionStatus: 'active', planStartDate: timeline.current!.valueFrom, hasPaidSubscription: true, updatedAt: now })
          .where(eq(schools.id, schoolId))
          .returning();
        const [payment] = await tx
          .insert(subscriptionPayments)
          .values({
            schoolId,
            provider: 'offline',
            mode,
            reference,
            orderId: `offline_${randomUUID()}`,
            planId,
            billingCycle,
            basePaise: taxable,
            discountPaise: 0,
            gstPaise: gst,
            amountPaise: received,
            kind: bought.kind,
            creditPaise: 0,
            periodStart: bought.start,
            periodEnd: bought.end,
            status: 'paid',
            createdAt: now,
            paidAt: paidOn,
          })
          .returning();
        const invoice = await issueInvoice(tx, { config, payment: payment!, school: school!, planName: quoted.planName, now });
        await audit(tx, masterActor(request, schoolId), {
          action,
          entity: 'subscription_payment',
          entityId: payment!.id,
          before: planSnapshot(row),
          after: { ...planSnapshot(school!), kind: bought.kind, amountPaise: received, mode, reference, paidOn: date, invoice: invoice.number, reason },
        });
        await keepRequestKey(tx, schoolId, key, now, payment!.id);
        return { school: school!, invoice, recorded: true };
      });
      if (result.recorded) sessionCache.forgetSchool(schoolId);
      return {
        message: `Payment recorded: invoice ${result.invoice.number}`,
        school: toSchoolDto(result.school, clock.now()),
        invoice: { id: result.invoice.id, number: result.invoice.number },
      };
    },
  );

  for (const [path, active] of [
    ['deactivate', false],
    ['reactivate', true],
  ] as const) {
    app.post(
      `/api/admin/schools/:id/${path}`,
      {
        ...common,
        schema: {
          ...common.schema,
          summary: active
            ? 'Reactivate a school: its users may sign in again'
            : "Deactivate a school: its users' sessions end at once and nobody of it can sign in until reactivated",
          params,
          body: activationSchema,
          response: { 200: answer, ...errors },
        },
      },
      async (request) => {
        const school = await change(request, request.params.id, `school.${path}`, request.body.reason, async (tx, row, now) => {
          if (!active && row.deactivatedAt) throw conflict(CHANGE_TEXTS.alreadyDeactivated);
          if (active && !row.deactivatedAt) throw conflict(CHANGE_TEXTS.notDeactivated);
          if (!active) await revokeSchoolSessions(tx, row.id, now);
          return { deactivatedAt: active ? null : now };
        });
        return { message: active ? 'School Reactivated' : 'School Deactivated', school: toSchoolDto(school, clock.now()) };
      },
    );
  }

  app.get(
    '/api/admin/schools/:id/billing',
    {
      ...common,
      schema: { ...common.schema, summary: "A school's subscription payments and tax invoices (master administrator)", params, response: { 200: billingDto, 404: errorDto } },
    },
    async (request) => {
      const schoolId = request.params.id;
      const [row] = await db.select({ id: schools.id }).from(schools).where(eq(schools.id, schoolId)).limit(1);
      if (!row) throw notFound(CHANGE_TEXTS.notFound);
      return toBillingDto(await billingRows(db, schoolId), (id) => `/api/admin/invoices/${id}/pdf`);
    },
  );

  app.get(
    '/api/admin/invoices/:id/pdf',
    {
      ...common,
      schema: { ...common.schema, summary: 'A tax invoice as PDF (master administrator)', params: z.object({ id: z.string().uuid('Invoice not found') }), response: { 200: z.any(), 404: errorDto } },
    },
    async (request, reply) => {
      const invoice = await findInvoiceAnySchool(db, request.params.id);
      if (!invoice) throw notFound('Invoice not found');
      return sendPdf(reply, await invoicePdf(invoice), `invoice-${invoice.number}.pdf`);
    },
  );
}

/** Paid (and refused) payments and the invoices of a school, newest first. */
export async function billingRows(db: Db, schoolId: string) {
  const payments = await db
    .select()
    .from(subscriptionPayments)
    .where(and(eq(subscriptionPayments.schoolId, schoolId), inArray(subscriptionPayments.status, ['paid', 'refused'])))
    .orderBy(desc(subscriptionPayments.paidAt));
  return { payments, invoices: await listInvoices(db, { schoolId }) };
}

/** The invoice an offline payment got (issued in its transaction, so it is there whenever the payment is). */
async function invoiceOfPayment(db: Db, paymentId: string | null) {
  const [row] = paymentId ? await db.select().from(invoices).where(eq(invoices.paymentId, paymentId)).limit(1) : [];
  if (!row) throw new Error(`offline payment ${paymentId} has no invoice`);
  return row;
}

async function findInvoiceAnySchool(db: Db, invoiceId: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, invoiceId)).limit(1);
  return row;
}
