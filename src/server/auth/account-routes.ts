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
import { badRequest, conflict, HttpError, unauthorized } from '../lib/errors';
import { isUniqueViolation } from '../lib/pg-errors';
import { queueMail } from '../mail/outbox';
import {
  confirmationMail,
  emailChangeConfirmMail,
  emailChangeNoticeMail,
  emailInUseMail,
  existingAccountMail,
  resetMail,
} from '../mail/templates';
import { createDefaultSession } from '../sessions/queries';
import { requireUser } from './context';
import { errorDto, messageDto, toUserDto, userDto } from './dto';
import { isLocalRequest } from './loopback';
import { answerFloor, EQUAL_ANSWER_MS, EQUAL_REGISTRATION_MS } from './equal-answers';
import { hashPassword, verifyPassword } from './passwords';
import { consumeMailToken, findUserByEmail, usedLinkOfConfirmedUser, findUserById, issueMailToken, revokeUserSessions, voidMailTokens } from './queries';
import { REAUTH_PER_USER, RECOVERY_PER_EMAIL, RECOVERY_PER_IP, recoveryRetryMessage, retryMessage } from './rate-limit';
import { sessionCache } from './session-cache';

export const EMAIL_TAKEN = 'This email is already registered. Please use a different email address.';
export const REGISTERED_MESSAGE =
  'Registration successful! Please check your email and confirm your address to sign in. Your 5-day free trial starts once your email is confirmed.';
export const FORGOT_MESSAGE =
  'If an account exists for that email, we have sent instructions to reset your password. The link expires in 60 minutes.';
export const RESEND_MESSAGE = 'If that address is waiting for confirmation, we have sent a new confirmation link.';
export const RESET_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';
export const RESET_DONE = 'Password reset successful. You can now sign in with your new password.';
export const CONFIRM_INVALID = 'This confirmation link is invalid or has already been used.';
export const ALREADY_CONFIRMED = 'Your email address is already confirmed. You can sign in.';
export const EMAIL_CHANGE_INVALID = 'This email change link is invalid or has expired. Please ask for the change again from Settings.';
export const EMAIL_CHANGE_DONE = 'Your sign-in email has been changed. Use the new address the next time you sign in.';
export const emailChangeSent = (newEmail: string) =>
  `We have sent a confirmation link to ${newEmail}. Your sign-in email changes once you open it; until then, keep using your current address.`;

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config, throttle } = app.deps;
  const link = (path: string, token?: string) => `${config.appUrl}${path}${token ? `?token=${encodeURIComponent(token)}` : ''}`;

  /**
   * The password typed again inside a session. Counted before the hash check (decision 0016), so a
   * burst of parallel guesses through one stolen token meets the limit; a right answer gives it back.
   */
  async function confirmPassword(user: { id: string; passwordHash: string }, password: string, field: string, wrong: string): Promise<void> {
    const verdict = await throttle.admit([{ rule: REAUTH_PER_USER, key: user.id }]);
    if (!verdict.admitted) {
      throw new HttpError(429, retryMessage(verdict.retryAfterSeconds), { retryAfterSeconds: verdict.retryAfterSeconds });
    }
    if (!(await verifyPassword(password, user.passwordHash))) throw badRequest(wrong, { fields: { [field]: wrong } });
    await throttle.release(verdict.ticket);
  }

  /** Recovery mail is limited per address and per IP; the answer is the same for real and unknown addresses. */
  async function limitRecoveryMail(ip: string, email: string): Promise<void> {
    const verdict = await throttle.admit([
      { rule: RECOVERY_PER_IP, key: ip },
      { rule: RECOVERY_PER_EMAIL, key: email },
    ]);
    if (!verdict.admitted) {
      throw new HttpError(429, recoveryRetryMessage(verdict.retryAfterSeconds), { retryAfterSeconds: verdict.retryAfterSeconds });
    }
  }

  app.post(
    '/api/school-registration',
    {
      schema: {
        tags: ['auth'],
        summary: 'Register a school and its administrator; mails a confirmation link (an address already registered gets a notice instead, with the same answer)',
        body: registrationSchema,
        response: { 201: messageDto, 400: errorDto },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const now = clock.now();
      const floor = answerFloor(EQUAL_REGISTRATION_MS);
      // hashed on both paths, so a registered address does not answer faster (item 7)
      const passwordHash = await hashPassword(input.password);
      const existing = await findUserByEmail(db, input.email);
      let created = false;
      if (!existing) {
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
                schoolRole: 'owner',
                createdAt: now,
              })
              .returning();
            await createDefaultSession(tx, { schoolId: school!.id, today: indiaDate(now) });
            const token = await issueMailToken(tx, { userId: user!.id, schoolId: school!.id, purpose: 'confirm_email', now });
            await queueMail(tx, { ...confirmationMail(input.email, input.schoolName, link('/confirm-email', token)), kind: 'confirm-email', schoolId: school!.id, now });
          });
          created = true;
        } catch (error) {
          // a simultaneous registration of the same address won: answer as for any registered address
          if (!isUniqueViolation(error)) throw error;
        }
      }
      if (!created) await noticeExistingAccount(request.ip, input.email, now);
      await floor();
      reply.status(201);
      return { message: REGISTERED_MESSAGE };
    },
  );

  /** The owner of a registered address hears that someone tried to register it (at most as often as recovery mail). */
  async function noticeExistingAccount(ip: string, email: string, now: Date): Promise<void> {
    const owner = await findUserByEmail(db, email);
    if (!owner) return;
    const verdict = await throttle.admit([
      { rule: RECOVERY_PER_IP, key: ip },
      { rule: RECOVERY_PER_EMAIL, key: email },
    ]);
    if (!verdict.admitted) return;
    await queueMail(db, { ...existingAccountMail(owner.email, link('/login'), link('/forgot-password')), kind: 'existing-account', schoolId: owner.schoolId, now });
  }

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
      if (!result) {
        // a second click on the same link: the address is confirmed, say so rather than "invalid"
        if (await usedLinkOfConfirmedUser(db, request.body.token, 'confirm_email')) return { message: ALREADY_CONFIRMED, trialEndsAt: null };
        throw badRequest(CONFIRM_INVALID);
      }
      return { message: 'Your email is confirmed. Your 5-day free trial has started: you can sign in now.', trialEndsAt: result.trialEndsAt };
    },
  );

  app.post(
    '/api/auth/resend-confirmation',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new confirmation link (answers the same whether or not the address exists); limited per address and per IP',
        body: forgotPasswordSchema,
        response: { 200: messageDto, 429: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const floor = answerFloor(EQUAL_ANSWER_MS);
      await limitRecoveryMail(request.ip, request.body.email);
      const user = await findUserByEmail(db, request.body.email);
      if (user && !user.emailConfirmedAt && user.schoolId) {
        const schoolId = user.schoolId;
        await db.transaction(async (tx) => {
          const token = await issueMailToken(tx, { userId: user.id, schoolId, purpose: 'confirm_email', now });
          await queueMail(tx, { ...confirmationMail(user.email, user.username, link('/confirm-email', token)), kind: 'confirm-email', schoolId, now });
        });
      }
      await floor();
      return { message: RESEND_MESSAGE };
    },
  );

  app.post(
    '/api/auth/forgot-password',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Mail a single-use reset link valid for 60 minutes (it voids earlier links); the answer never reveals whether the address exists; limited per address and per IP',
        body: forgotPasswordSchema,
        response: {
          200: z.object({ message: z.string(), resetToken: z.string().optional(), resetUrl: z.string().optional() }),
          429: errorDto,
        },
      },
    },
    async (request) => {
      const now = clock.now();
      const { email } = request.body;
      const floor = answerFloor(EQUAL_ANSWER_MS);
      await limitRecoveryMail(request.ip, email);
      const user = await findUserByEmail(db, email);
      await audit(db, { schoolId: user?.schoolId ?? null, userId: user?.id ?? null, ip: request.ip }, {
        action: 'password.reset_requested',
        entity: 'user',
        entityId: user?.id ?? null,
        after: { email },
      });
      const token = user
        ? await db.transaction(async (tx) => {
            const issued = await issueMailToken(tx, { userId: user.id, schoolId: user.schoolId, purpose: 'reset_password', now });
            await queueMail(tx, { ...resetMail(user.email, link('/reset-password', issued)), kind: 'reset-password', schoolId: user.schoolId, now });
            return issued;
          })
        : null;
      // ruling 30: development without a mail server, asked from this machine only, shows the link
      if (token && config.revealResetTokens && isLocalRequest(request)) {
        return { message: FORGOT_MESSAGE, resetToken: token, resetUrl: link('/reset-password', token) };
      }
      await floor();
      return { message: FORGOT_MESSAGE };
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with a mailed reset token; signs the user out everywhere and voids other reset links',
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
        await voidMailTokens(tx, owner.userId, ['reset_password', 'change_email'], now);
        await audit(tx, { schoolId: owner.schoolId, userId: owner.userId, ip: request.ip }, { action: 'password.reset', entity: 'user', entityId: owner.userId });
        return owner.userId;
      });
      if (!done) throw badRequest(RESET_INVALID);
      sessionCache.forgetUser(done);
      return { message: RESET_DONE };
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      onRequest: requireUser,
      config: { allowWhenExpired: true },
      schema: {
        tags: ['settings'],
        summary: 'Change the password; other sessions are signed out and reset links stop working',
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
      await confirmPassword(user, request.body.currentPassword, 'currentPassword', 'Current password is incorrect');
      const passwordHash = await hashPassword(request.body.newPassword);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
        await revokeUserSessions(tx, user.id, now, auth.sessionId);
        await voidMailTokens(tx, user.id, ['reset_password'], now);
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
        summary:
          'Ask to change the sign-in email (needs the current password): mails a confirmation link to the new address and a notice to the current one; nothing changes until the link is opened',
        security: [{ bearer: [] }],
        body: changeEmailSchema,
        response: { 200: z.object({ message: z.string(), user: userDto, pendingEmail: z.string() }), 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const auth = request.auth!;
      const user = await findUserById(db, auth.userId);
      if (!user) throw unauthorized();
      const { newEmail, password } = request.body;
      if (newEmail === user.email.toLowerCase()) {
        throw badRequest('New email must be different from current email', { fields: { newEmail: 'New email must be different from current email' } });
      }
      await confirmPassword(user, password, 'password', 'Password is incorrect');
      // an address that belongs to another account is not revealed: its owner gets a notice instead of a link
      const taken = await findUserByEmail(db, newEmail);
      await db.transaction(async (tx) => {
        if (taken) {
          await queueMail(tx, { ...emailInUseMail(taken.email), kind: 'email-in-use', schoolId: taken.schoolId, now });
        } else {
          const token = await issueMailToken(tx, { userId: user.id, schoolId: user.schoolId, purpose: 'change_email', now, newEmail });
          await queueMail(tx, { ...emailChangeConfirmMail(newEmail, link('/confirm-email-change', token)), kind: 'email-change', schoolId: user.schoolId, now });
        }
        await queueMail(tx, { ...emailChangeNoticeMail(user.email, newEmail, link('/forgot-password')), kind: 'email-change-notice', schoolId: user.schoolId, now });
        await audit(tx, request, { action: 'email.change_requested', entity: 'user', entityId: user.id, before: { email: user.email }, after: { email: newEmail } });
      });
      return { message: emailChangeSent(newEmail), user: toUserDto(user), pendingEmail: newEmail };
    },
  );

  app.post(
    '/api/auth/confirm-email-change',
    {
      schema: {
        tags: ['settings'],
        summary: 'Open the link mailed to the new address: it becomes the sign-in email (and the school contact, when they matched)',
        body: tokenSchema,
        response: { 200: z.object({ message: z.string(), email: z.string() }), 400: errorDto, 409: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      try {
        const changed = await db.transaction(async (tx) => {
          const owner = await consumeMailToken(tx, request.body.token, 'change_email', now);
          if (!owner?.newEmail) return null;
          const newEmail = owner.newEmail;
          const [before] = await tx.select({ email: users.email }).from(users).where(eq(users.id, owner.userId));
          if (!before) return null;
          await tx.update(users).set({ email: newEmail }).where(eq(users.id, owner.userId));
          if (owner.schoolId) {
            // the school's contact address follows its administrator's sign-in address when they matched
            await tx
              .update(schools)
              .set({ email: newEmail })
              .where(and(eq(schools.id, owner.schoolId), sql`lower(${schools.email}) = ${before.email.toLowerCase()}`));
          }
          // links mailed to the old address must not act on the account any more
          await voidMailTokens(tx, owner.userId, ['reset_password', 'confirm_email'], now);
          await audit(tx, { schoolId: owner.schoolId, userId: owner.userId, ip: request.ip }, {
            action: 'email.change',
            entity: 'user',
            entityId: owner.userId,
            before: { email: before.email },
            after: { email: newEmail },
          });
          return { userId: owner.userId, email: newEmail };
        });
        if (!changed) throw badRequest(EMAIL_CHANGE_INVALID);
        sessionCache.forgetUser(changed.userId);
        return { message: EMAIL_CHANGE_DONE, email: changed.email };
      } catch (error) {
        // the address was registered by someone else after the link was sent
        if (isUniqueViolation(error)) throw conflict(EMAIL_TAKEN);
        throw error;
      }
    },
  );
}
