import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../lib/audit';
import { badRequest, conflict } from '../lib/errors';
import { requireMaster } from './context';
import { errorDto } from './dto';
import { otpauthUrl, newTotpSecret } from './totp';
import { enableTotp, findTotp, removeTotp, startEnrolment, useTotpCode } from './totp-store';

export const TOTP_WRONG_CODE = 'That code is not right. Enter the 6-digit code your authenticator app shows now.';
export const TOTP_ALREADY_ON = 'Two-step sign-in is already on. Turn it off first to set up another authenticator.';
export const TOTP_NOT_STARTED = 'Start the set-up first: choose Set up two-step sign-in.';
export const TOTP_NOT_ON = 'Two-step sign-in is not on.';

const codeField = z
  .string({ error: 'Enter the 6-digit code' })
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');

const statusDto = z.object({ enabled: z.boolean(), enabledAt: z.string().nullable(), pending: z.boolean() });

/**
 * The master administrator's authenticator (decision 0035): start enrolment (a new secret and its
 * otpauth link), confirm it with a first code, or turn it off with a current code and a reason.
 */
export async function totpRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, cipher } = app.deps;
  const common = { onRequest: requireMaster } as const;

  app.get(
    '/api/admin/totp',
    {
      ...common,
      schema: {
        tags: ['admin'],
        summary: 'Whether the signed-in master administrator has two-step sign-in on',
        security: [{ bearer: [] }],
        response: { 200: statusDto },
      },
    },
    async (request) => {
      const row = await findTotp(db, request.auth!.userId);
      return { enabled: Boolean(row?.enabledAt), enabledAt: row?.enabledAt?.toISOString() ?? null, pending: Boolean(row && !row.enabledAt) };
    },
  );

  app.post(
    '/api/admin/totp/enrol',
    {
      ...common,
      schema: {
        tags: ['admin'],
        summary: 'Start two-step sign-in: a new secret and its otpauth:// link, in force once confirmed with a code',
        security: [{ bearer: [] }],
        response: { 200: z.object({ secret: z.string(), otpauthUrl: z.string() }), 409: errorDto },
      },
    },
    async (request) => {
      const userId = request.auth!.userId;
      if ((await findTotp(db, userId))?.enabledAt) throw conflict(TOTP_ALREADY_ON);
      const secret = newTotpSecret();
      await startEnrolment(db, cipher, userId, secret, clock.now());
      return { secret, otpauthUrl: otpauthUrl(secret, request.auth!.email) };
    },
  );

  app.post(
    '/api/admin/totp/confirm',
    {
      ...common,
      schema: {
        tags: ['admin'],
        summary: 'Confirm the authenticator with its current code; from then on /api/auth/admin-login asks for a code',
        security: [{ bearer: [] }],
        body: z.object({ code: codeField }),
        response: { 200: statusDto, 400: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const userId = request.auth!.userId;
      const now = clock.now();
      const row = await findTotp(db, userId);
      if (!row) throw badRequest(TOTP_NOT_STARTED);
      if (row.enabledAt) throw conflict(TOTP_ALREADY_ON);
      if (!(await useTotpCode(db, cipher, row, request.body.code, now))) throw badRequest(TOTP_WRONG_CODE);
      await db.transaction(async (tx) => {
        await enableTotp(tx, userId, now);
        await audit(tx, request, { action: 'totp.enable', entity: 'user', entityId: userId });
      });
      return { enabled: true, enabledAt: now.toISOString(), pending: false };
    },
  );

  app.post(
    '/api/admin/totp/disable',
    {
      ...common,
      schema: {
        tags: ['admin'],
        summary: 'Turn two-step sign-in off: needs a current code and a reason, which the audit log keeps',
        security: [{ bearer: [] }],
        body: z.object({ code: codeField, reason: z.string({ error: 'Please give a reason' }).trim().min(3, 'Please give a reason').max(500, 'The reason is too long') }),
        response: { 200: statusDto, 400: errorDto },
      },
    },
    async (request) => {
      const userId = request.auth!.userId;
      const row = await findTotp(db, userId);
      if (!row?.enabledAt) throw badRequest(TOTP_NOT_ON);
      if (!(await useTotpCode(db, cipher, row, request.body.code, clock.now()))) throw badRequest(TOTP_WRONG_CODE);
      await db.transaction(async (tx) => {
        await removeTotp(tx, userId);
        await audit(tx, request, { action: 'totp.disable', entity: 'user', entityId: userId, after: { reason: request.body.reason } });
      });
      return { enabled: false, enabledAt: null, pending: false };
    },
  );
}
