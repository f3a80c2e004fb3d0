import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changeEmailSchema,
  changePasswordSchema,
  forgotPasswordSchema,
  registrationSchema,
  resetPasswordSchema,
  tokenSchema,
} from '../../domain/auth';
import { TRIAL_DAYS } from '../../domain/plans';
import { indiaDate } from '../../domain/sessions';
import { schools, users } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict, unauthorized } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { queueMail } from '../mail/outbox';
import { confirmationMail, resetMail } from '../mail/templates';
import { createDefaultSession } from '../sessions/queries';
import { requireUser } from './context';
import { errorDto, messageDto, toUserDto, userDto } from './dto';
import { hashPassword, verifyPassword } from './passwords';
import { consumeMailToken, findUserByEmail, findUserById, issueMailToken, revokeUserSessions } from './queries';
import { sessionCache } from './session-cache';

export const EMAIL_TAKEN = 'This email is already registered. Please use a different email address.';
export const REGISTERED_MESSAGE =
  'Registration successful! Please check your email and confirm your address to sign in. Your 5-day free trial starts once your email is confirmed.';
export const FORGOT_MESSAGE =
  'If an account exists for that email, we have sent instructions to reset your password. The link expires in 60 minutes.';
export const RESET_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';
export const CONFIRM_INVALID = 'This confirmation link is invalid or has already been used.';

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;

  app.post(
    '/api/school-registration',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a school and its administrator; mails a confirmation link',
        body: registrationSchema,
        response: { 201: messageDto, 400: errorDto, 409: errorDto },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const now = clock.now();
      if (await findUserByEmail(db, input.email)) throw conflict(EMAIL_TAKEN);
      const passwordHash = await hashPassword(input.password);
      try {
        await db.transaction(async (tx) => {
          const [school] = await tx
            .insert(schools)
            .values({
              name: input.schoolName,
              email: input.email,
              phone: input.phone,
              address: input.address ?? '',
              subscriptionPlan: input.selectedPlan ?? 'basic',
              subscriptionStatus: 'trial',
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          const [user] = await tx
            .insert(users)
            .values({
              schoolId: school!.id,
              email: input.email,
              username: input.schoolName,
              passwordHash,
              role: 'school_admin',
              createdAt: now,
            })
            .returning();
          await createDefaultSession(tx, { schoolId: school!.id, today: indiaDate(now) });
          const token = await issueMailToken(tx, { userId: user!.id, schoolId: school!.id, purpose: 'confirm_email', now });
          const link = `${config.appUrl}/confirm-email?token=${encodeURIComponent(token)}`;
          await queueMail(tx, { ...confirmationMail(input.email, input.schoolName, link), kind: 'confirm-email', schoolId: school!.id, now });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
      reply.status(201);
      return { message: REGISTERED_MESSAGE };
    },
  );

  app.post(
    '/api/auth/confirm-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm the email address from the mailed link; starts the 5-day trial',
        body: tokenSchema,
        response: { 200: z.object({ message: z.string(), trialEndsAt: z.string().nullable() }), 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const result = await db.transaction(async (tx) => {
        const owner = await consumeMailToken(tx, request.body.token, 'confirm_email', now);
        if (!owner) return null;
        await tx.update(users).set({ emailConfirmedAt: now }).where(and(eq(users.id, owner.userId), isNull(users.emailConfirmedAt)));
        if (!owner.schoolId) return { trialEndsAt: null };
        const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
        const [school] = await tx
          .update(schools)
          .set({ trialEndsAt: sql`coalesce(${schools.trialEndsAt}, ${trialEndsAt.toISOString()}::timestamptz)`, updatedAt: now })
          .where(eq(schools.id, owner.schoolId))
          .returning({ trialEndsAt: schools.trialEndsAt });
        return { trialEndsAt: school?.trialEndsAt?.toISOString() ?? null };
      });
      if (!result) throw badRequest(CONFIRM_INVALID);
      return { message: 'Your email is confirmed. Your 5-day free trial has started: you can sign in now.', trialEndsAt: result.trialEndsAt };
    },
  );

  app.post(
    '/api/auth/resend-confirmation',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new confirmation link (answers the same whether or not the address exists)',
        body: forgotPasswordSchema,
        response: { 200: messageDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const user = await findUserByEmail(db, request.body.email);
      if (user && !user.emailConfirmedAt && user.schoolId) {
        const schoolId = user.schoolId;
        await db.transaction(async (tx) => {
          const token = await issueMailToken(tx, { userId: user.id, schoolId, purpose: 'confirm_email', now });
          const link = `${config.appUrl}/confirm-email?token=${encodeURIComponent(token)}`;
          await queueMail(tx, { ...confirmationMail(user.email, user.username, link), kind: 'confirm-email', schoolId, now });
        });
      }
      return { message: 'If that address is waiting for confirmation, we have sent a new confirmation link.' };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a single-use reset link valid for 60 minutes; the answer never reveals whether the address exists',
        body: forgotPasswordSchema,
        response: {
          200: z.object({ message: z.string(), resetToken: z.string().optional(), resetUrl: z.string().optional() }),
        },
      },
    },
    async (request) => {
      const now = clock.now();
      const user = await findUserByEmail(db, request.body.email);
      if (!user) return { message: FORGOT_MESSAGE };
      const { token, resetUrl } = await db.transaction(async (tx) => {
        const issued = await issueMailToken(tx, { userId: user.id, schoolId: user.schoolId, purpose: 'reset_password', now });
        const url = `${config.appUrl}/reset-password?token=${encodeURIComponent(issued)}`;
        await queueMail(tx, { ...resetMail(user.email, url), kind: 'reset-password', schoolId: user.schoolId, now });
        return { token: issued, resetUrl: url };
      });
      // development without a mail server only: the page shows the link so a newcomer can reset
      return config.revealResetTokens ? { message: FORGOT_MESSAGE, resetToken: token, resetUrl } : { message: FORGOT_MESSAGE };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset token; signs the user out everywhere',
        body: resetPasswordSchema,
        response: { 200: messageDto, 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const passwordHash = await hashPassword(request.body.newPassword);
      const done = await db.transaction(async (tx) => {
        const owner = await consumeMailToken(tx, request.body.token, 'reset_password', now);
        if (!owner) return null;
        await tx.update(users).set({ passwordHash }).where(eq(users.id, owner.userId));
        await revokeUserSessions(tx, owner.userId, now);
        return owner.userId;
      });
      if (!done) throw badRequest(RESET_INVALID);
      sessionCache.forgetUser(done);
      return { message: 'Password reset successful. You can now sign in with your new password.' };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: requireUser,
      config: { allowWhenExpired: true },
      schema: {
        tags: ['settings'],
        summary: 'Change the password; other sessions are signed out',
        security: [{ bearer: [] }],
        body: changePasswordSchema,
        response: { 200: messageDto, 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const auth = request.auth!;
      const user = await findUserById(db, auth.userId);
      if (!user) throw unauthorized();
      if (!(await verifyPassword(request.body.currentPassword, user.passwordHash))) {
        throw badRequest('Current password is incorrect', { fields: { currentPassword: 'Current password is incorrect' } });
      }
      const passwordHash = await hashPassword(request.body.newPassword);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id, now, auth.sessionId);
        await audit(tx, request, { action: 'password.change', entity: 'user', entityId: user.id });
      });
      sessionCache.forgetUser(user.id);
      return { message: 'Your account password has been changed securely.' };
    },
  );

  app.post(
    '/api/auth/change-email',
    {
      onRequest: requireUser,
      config: { allowWhenExpired: true },
      schema: {
        tags: ['settings'],
        summary: 'Change the sign-in email address (needs the current password)',
        security: [{ bearer: [] }],
        body: changeEmailSchema,
        response: { 200: z.object({ message: z.string(), user: userDto }), 400: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const user = await findUserById(db, auth.userId);
      if (!user) throw unauthorized();
      const { newEmail, password } = request.body;
      if (newEmail === user.email.toLowerCase()) {
        throw badRequest('New email must be different from current email', { fields: { newEmail: 'New email must be different from current email' } });
      }
      if (!(await verifyPassword(password, user.passwordHash))) {
        throw badRequest('Password is incorrect', { fields: { password: 'Password is incorrect' } });
      }
      if (await findUserByEmail(db, newEmail)) throw conflict(EMAIL_TAKEN, { fields: { newEmail: EMAIL_TAKEN } });
      try {
        const updated = await db.transaction(async (tx) => {
          const [row] = await tx.update(users).set({ email: newEmail }).where(eq(users.id, user.id)).returning();
          if (user.schoolId) {
            // the school's contact address follows its administrator's sign-in address when they matched
            await tx
              .update(schools)
              .set({ email: newEmail })
              .where(and(eq(schools.id, user.schoolId), sql`lower(${schools.email}) = ${user.email.toLowerCase()}`));
          }
          await audit(tx, request, { action: 'email.change', entity: 'user', entityId: user.id, before: { email: user.email }, after: { email: newEmail } });
          return row!;
        });
        sessionCache.forgetUser(user.id);
        return { message: 'Your account email has been changed and updated across the system.', user: toUserDto(updated) };
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
    },
  );
}
