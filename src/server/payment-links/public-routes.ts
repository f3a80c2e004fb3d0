import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { toRupeeString, type Paise } from '../../domain/money';
import { INVALID_LINK_MESSAGE, LINK_FEE_TYPES, linkStatus, upiIntentUrl } from '../../domain/payment-links';
import { PAY_LINK_PER_IP } from '../auth/rate-limit';
import { eq } from 'drizzle-orm';
import { schools, students } from '../db/schema';
import { HttpError } from '../lib/errors';
import { findLinkByToken, type LinkRow } from './queries';
import { collectsThrough, readSettings } from './settings';

/** The public pages answer unknown, malformed and other schools' tokens alike: nothing is revealed. */
export const linkNotFound = () => new HttpError(404, INVALID_LINK_MESSAGE, { message: INVALID_LINK_MESSAGE });

export const publicErrorDto = z.object({ error: z.string(), message: z.string().optional() });

/** The seed's "payment link response" (operations §3), exactly. */
export const payLinkDto = z
  .object({
    school: z.object({ name: z.string() }).strict(),
    student: z.object({ name: z.string(), class: z.string(), rollNumber: z.number().int() }).strict(),
    paymentLink: z
      .object({
        feeType: z.enum(LINK_FEE_TYPES),
        description: z.string(),
        feeMonth: z.string().nullable(),
        amount: z.string().describe('rupees, "1500.00"'),
        expiresAt: z.string(),
        status: z.enum(['active', 'paid', 'expired', 'cancelled']),
      })
      .strict(),
  })
  .strict();

/** The `tr` of the UPI intent: a reference tied to the link (UPI allows up to 35 letters and digits). */
export const upiReferenceOf = (link: Pick<LinkRow, 'id'>) => `SL${link.id.replace(/-/g, '').slice(0, 24).toUpperCase()}`;

export const tokenParams = z.object({ linkToken: z.string().max(200) });

/** Rate limit of the public link calls, per IP, counted in the database so it holds under parallel requests. */
export function payRateLimit(app: FastifyInstance) {
  return async (request: FastifyRequest): Promise<void> => {
    const verdict = await app.deps.throttle.admit([{ rule: PAY_LINK_PER_IP, key: request.ip }]);
    if (!verdict.admitted) {
      throw new HttpError(429, 'Too many requests. Please wait a minute and try again.', { retryAfterSeconds: verdict.retryAfterSeconds });
    }
  };
}

export async function publicLinkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock } = app.deps;
  const limited = payRateLimit(app);

  app.get(
    '/api/pay/:linkToken',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "The payment link response (operations §3): the school's name, the student's name, class and roll number, and that one fee",
        description: 'Public and rate limited (60 calls a minute per IP). Unknown tokens: 404 "Invalid payment link", revealing nothing.',
        params: tokenParams,
        response: { 200: payLinkDto, 404: publicErrorDto, 429: publicErrorDto },
      },
    },
    async (request) => {
      const link = await findLinkByToken(db, request.params.linkToken);
      if (!link) throw linkNotFound();
      const [row] = await db
        .select({ schoolName: schools.name, name: students.name, className: students.className, rollNumber: students.rollNumber })
        .from(students)
        .innerJoin(schools, eq(schools.id, students.schoolId))
        .where(eq(students.id, link.studentId))
        .limit(1);
      if (!row) throw linkNotFound();
      return {
        school: { name: row.schoolName },
        student: { name: row.name, class: row.className, rollNumber: row.rollNumber },
        paymentLink: {
          feeType: link.feeType as (typeof LINK_FEE_TYPES)[number],
          description: link.description,
          feeMonth: link.feeMonth,
          amount: toRupeeString(link.amountPaise as Paise),
          expiresAt: link.expiresAt.toISOString(),
          status: linkStatus(link.status, link.expiresAt, clock.now()),
        },
      };
    },
  );

  app.get(
    '/api/pay/:linkToken/methods',
    {
      onRequest: limited,
      schema: {
        tags: ['payment link (public)'],
        summary: "How this link can be paid: the school's gateway (razorpay or the sandbox) and/or UPI to the school's VPA",
        params: tokenParams,
        response: {
          200: z.object({
            gateway: z.enum(['razorpay', 'sandbox']).nullable(),
            upi: z.object({ vpa: z.string(), payeeName: z.string(), intentUrl: z.string() }).nullable(),
          }),
          404: publicErrorDto,
          429: publicErrorDto,
        },
      },
    },
    async (request) => {
      const link = await findLinkByToken(db, request.params.linkToken);
      if (!link) throw linkNotFound();
      const settings = await readSettings(db, link.schoolId);
      const through = collectsThrough(app.deps, settings);
      const gateway = through === 'razorpay' || through === 'sandbox' ? through : null;
      const upi =
        settings?.upiVpa && settings.upiPayeeName
          ? {
              vpa: settings.upiVpa,
              payeeName: settings.upiPayeeName,
              intentUrl: upiIntentUrl({
                vpa: settings.upiVpa,
                payeeName: settings.upiPayeeName,
                amount: link.amountPaise as Paise,
                note: link.description,
                reference: upiReferenceOf(link),
              }),
            }
          : null;
      return { gateway, upi };
    },
  );
}
