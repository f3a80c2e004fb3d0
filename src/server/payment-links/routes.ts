import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString } from '../../domain/money';
import { createLinkSchema, LINK_FEE_TYPES, linkStatus, MAX_LINK_DAYS } from '../../domain/payment-links';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto } from '../auth/dto';
import { paymentLinks, schoolPaymentSettings, students } from '../db/schema';
import { audit } from '../lib/audit';
import { conflict, HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { createPaymentLink, findReusableLink, setLinkBaseUrl } from './create';
import { listLinks, paymentLinkRowDto } from './queries';
import { ensureSettings, settingsBody, settingsDto, toSettingsDto } from './settings';

const createdDto = z.object({
  id: z.string(),
  linkToken: z.string(),
  url: z.string(),
  amount: z.string(),
  feeType: z.enum(LINK_FEE_TYPES),
  feeMonth: z.string().nullable(),
  expiresAt: z.string(),
  status: z.enum(['active', 'paid', 'expired', 'cancelled']),
});

const listQuery = z.object({
  studentId: z.string().trim().max(100).optional(),
  status: z.enum(['active', 'paid', 'expired', 'cancelled']).optional(),
  class: z.string().trim().max(50).optional(),
});

const bulkBody = z.object({
  studentIds: z.array(z.string().trim().max(100)).min(1, 'Choose at least one student').max(100, 'Send at most 100 students at a time'),
  expiresInDays: z.coerce.number().int().min(1).max(MAX_LINK_DAYS, `A payment link can be valid for at most ${MAX_LINK_DAYS} days`).optional(),
});

export async function paymentLinkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, cipher, config } = app.deps;
  setLinkBaseUrl(config.appUrl);

  app.get(
    '/api/settings/payments',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['online payments'],
        summary: "The school's collection settings (its own Razorpay keys, UPI id); secrets are never returned",
        security: [{ bearer: [] }],
        response: { 200: settingsDto },
      },
    },
    async (request) => toSettingsDto(app.deps, await ensureSettings(db, schoolIdOf(request))),
  );

  app.put(
    '/api/settings/payments',
    {
      onRequest: requireSchool,
      config: { permission: 'settings.manage' },
      schema: {
        tags: ['online payments'],
        summary: 'Change the collection settings: an omitted field is kept, "" clears it',
        description: 'Secrets (key secret, webhook secret) are stored encrypted (AES-256-GCM, like Aadhaar) and only reported as set or not.',
        security: [{ bearer: [] }],
        body: settingsBody,
        response: { 200: settingsDto, 400: errorDto, 402: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        // read locked: every field not given is written back as read, so two admins saving at once
        // (one the webhook secret, the other the UPI id) must take turns, or the later one clears
        // what the earlier set
        await ensureSettings(tx, schoolId);
        const [before] = await tx.select().from(schoolPaymentSettings).where(eq(schoolPaymentSettings.schoolId, schoolId)).for('update');
        if (!before) throw new Error('payment settings row missing after ensureSettings');
        const keep = <T>(given: string | undefined, current: T, map: (v: string) => T): T | null =>
          given === undefined ? current : given === '' ? null : map(given);
        const next = {
          razorpayKeyId: keep(b.razorpayKeyId, before.razorpayKeyId, (v) => v),
          razorpayKeySecretEnc: keep(b.razorpayKeySecret, before.razorpayKeySecretEnc, (v) => cipher.encrypt(v)),
          razorpayWebhookSecretEnc: keep(b.razorpayWebhookSecret, before.razorpayWebhookSecretEnc, (v) => cipher.encrypt(v)),
          upiVpa: keep(b.upiVpa, before.upiVpa, (v) => v),
          upiPayeeName: keep(b.upiPayeeName, before.upiPayeeName, (v) => v),
        };
        if (Boolean(next.razorpayKeyId) !== Boolean(next.razorpayKeySecretEnc)) {
          throw new HttpError(400, 'Enter the Razorpay key id and key secret together (or clear both)');
        }
        if (next.upiVpa && !next.upiPayeeName) throw new HttpError(400, 'Enter the payee name (the name on the bank account) with the UPI id');
        const [updated] = await tx
          .update(schoolPaymentSettings)
          .set({ ...next, updatedAt: now })
          .where(eq(schoolPaymentSettings.schoolId, schoolId))
          .returning();
        // what changed, never the secrets themselves
        const shape = (r: typeof before) => ({
          razorpayKeyId: r.razorpayKeyId,
          razorpayKeySecretSet: Boolean(r.razorpayKeySecretEnc),
          webhookSecretSet: Boolean(r.razorpayWebhookSecretEnc),
          upiVpa: r.upiVpa,
          upiPayeeName: r.upiPayeeName,
        });
        await audit(tx, request, { action: 'payment-settings.update', entity: 'school', entityId: schoolId, before: shape(before), after: shape(updated!) });
        return updated!;
      });
      return toSettingsDto(app.deps, row);
    },
  );

  app.post(
    '/api/payment-links',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['online payments'],
        summary: 'Make a payment link for one student and one fee (ruling 34)',
        description:
          'feeType: a fee head (tuition and bus need feeMonth YYYY-MM) or outstanding (carried balances and the till-date dues of the open session). amount defaults to, and may not exceed, what is due for that fee now (409 otherwise). expiresInDays: default 15, at most 180.',
        security: [{ bearer: [] }],
        body: createLinkSchema,
        response: { 201: createdDto, 400: errorDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const b = request.body;
      const now = clock.now();
      const link = await db.transaction(async (tx) => {
        const made = await createPaymentLink(
          tx,
          {
            schoolId,
            studentId: b.studentId,
            feeType: b.feeType,
            feeMonth: b.feeMonth,
            amountPaise: b.amount,
            description: b.description,
            expiresInDays: b.expiresInDays,
            createdBy: request.auth?.userId ?? null,
          },
          now,
        );
        await audit(tx, request, {
          action: 'payment-link.create',
          entity: 'payment_link',
          entityId: made.id,
          after: { studentId: b.studentId, feeType: made.feeType, feeMonth: made.feeMonth, amountPaise: made.amountPaise, expiresAt: made.expiresAt },
        });
        return made;
      });
      reply.status(201);
      return {
        id: link.id,
        linkToken: link.linkToken,
        url: link.url,
        amount: toRupeeString(link.amountPaise),
        feeType: link.feeType,
        feeMonth: link.feeMonth,
        expiresAt: link.expiresAt.toISOString(),
        status: link.status,
      };
    },
  );

  app.get(
    '/api/payment-links',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.view' },
      schema: {
        tags: ['online payments'],
        summary: 'Payment links of the school, newest first (at most 500), with filters',
        description: 'status "expired" is an active link past its expiresAt; "active" excludes those.',
        security: [{ bearer: [] }],
        querystring: listQuery,
        response: { 200: z.object({ links: z.array(paymentLinkRowDto) }), 400: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const q = request.query;
      if (q.studentId && !isUuid(q.studentId)) return { links: [] };
      return { links: await listLinks(db, { schoolId, studentId: q.studentId, status: q.status, className: q.class }, clock.now()) };
    },
  );

  app.post(
    '/api/payment-links/:id/cancel',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['online payments'],
        summary: 'Cancel an active link: the parent can no longer pay it',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string() }),
        response: { 200: paymentLinkRowDto, 402: errorDto, 404: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound('Payment link not found');
      const now = clock.now();
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(paymentLinks)
          .where(and(eq(paymentLinks.schoolId, schoolId), eq(paymentLinks.id, id)))
          .for('update')
          .limit(1);
        if (!row) throw notFound('Payment link not found');
        if (row.status === 'paid') throw conflict('This payment link is already paid: it cannot be cancelled.');
        if (row.status === 'cancelled') return;
        await tx.update(paymentLinks).set({ status: 'cancelled', cancelledAt: now }).where(eq(paymentLinks.id, id));
        await audit(tx, request, { action: 'payment-link.cancel', entity: 'payment_link', entityId: id, before: { status: linkStatus(row.status, row.expiresAt, now) }, after: { status: 'cancelled' } });
      });
      const [row] = await listLinks(db, { schoolId, ids: [id] }, now);
      return row!;
    },
  );

  app.post(
    '/api/payment-links/bulk',
    {
      onRequest: requireSchool,
      config: { permission: 'fees.collect' },
      schema: {
        tags: ['online payments'],
        summary: 'One outstanding link per student with dues (an active link for the same amount is reused)',
        description: 'At most 100 students per request: the web sends the defaulters of a class or the school in chunks and shows progress.',
        security: [{ bearer: [] }],
        body: bulkBody,
        response: {
          200: z.object({
            created: z.array(paymentLinkRowDto),
            skipped: z.array(z.object({ studentId: z.string(), studentName: z.string(), reason: z.string() })),
          }),
          400: errorDto,
          402: errorDto,
        },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const now = clock.now();
      const ids = [...new Set(request.body.studentIds)];
      const known = await db
        .select({ id: students.id, name: students.name })
        .from(students)
        .where(and(eq(students.schoolId, schoolId), inArray(students.id, ids.filter(isUuid))));
      const names = new Map(known.map((s) => [s.id, s.name]));
      const linkIds: string[] = [];
      const skipped: Array<{ studentId: string; studentName: string; reason: string }> = [];
      for (const studentId of ids) {
        const studentName = names.get(studentId);
        if (!studentName) {
          skipped.push({ studentId, studentName: '', reason: 'Student not found' });
          continue;
        }
        try {
          // each student on its own: one without dues does not undo the others
          const id = await db.transaction(async (tx) => {
            const reused = await findReusableLink(tx, { schoolId, studentId, feeType: 'outstanding' }, now);
            if (reused) return reused.id;
            const made = await createPaymentLink(
              tx,
              { schoolId, studentId, feeType: 'outstanding', expiresInDays: request.body.expiresInDays, createdBy: request.auth?.userId ?? null },
              now,
            );
            await audit(tx, request, { action: 'payment-link.create', entity: 'payment_link', entityId: made.id, after: { studentId, feeType: 'outstanding', amountPaise: made.amountPaise, bulk: true } });
            return made.id;
          });
          linkIds.push(id);
        } catch (error) {
          if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
          skipped.push({ studentId, studentName, reason: error.message });
        }
      }
      const rows = linkIds.length ? await listLinks(db, { schoolId, ids: linkIds }, now) : [];
      const order = new Map(linkIds.map((id, i) => [id, i]));
      return { created: rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!), skipped };
    },
  );
}
