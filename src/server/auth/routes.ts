import { STAFF_MESSAGES } from '../../domain/staff';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginSchema, rememberLoginSchema } from '../../domain/auth';
import { users } from '../db/schema';
import { forbidden, HttpError, unauthorized } from '../lib/errors';
import { findSchool, schoolDto, toSchoolDto } from '../schools/queries';
import { accountRoutes } from './account-routes';
import { requireUser } from './context';
import { errorDto, messageDto, toUserDto, userDto } from './dto';
import { dummyPasswordHash, verifyPassword } from './passwords';
import {
  consumeRememberSession,
  createSessionRow,
  findUserByEmail,
  findUserById,
  hasSignedInFrom,
  recordLoginEvent,
  revokeSession,
  type UserRow,
} from './queries';
import { totpRoutes } from './totp-routes';
import { totpEnabled, useTotpCode } from './totp-store';
import { KNOWN_IP_DAYS, retryMessage, SIGN_IN_PER_ACCOUNT, SIGN_IN_PER_ACCOUNT_IP, SIGN_IN_PER_IP } from './rate-limit';

export const EMAIL_NOT_CONFIRMED =
  'Please confirm your email address before signing in. Check your inbox for a confirmation email.';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ADMIN_MUST_USE_PORTAL = 'Master administrators must use the dedicated admin portal.';
export const REMEMBER_EXPIRED = 'Your saved sign-in has expired. Please sign in again.';
export const TOTP_NEEDED = 'Enter the 6-digit code from your authenticator app.';
export const TOTP_INVALID = 'That code is not right or was already used. Enter the code your authenticator app shows now.';

const sessionAnswer = z.object({
  success: z.literal(true),
  token: z.string(),
  rememberToken: z.string().optional(),
  user: userDto,
  school: schoolDto.nullable(),
  /** ruling 14: the school's trial or plan has ended; this session reads, exports and pays, writes answer 402 */
  requiresPayment: z.literal(true).optional(),
  schoolId: z.string().optional(),
});

/** Said to a user of a school the master administrator deactivated. */
export const SCHOOL_DEACTIVATED = "This school's account has been deactivated. Please contact support.";

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, tokens, throttle, cipher } = app.deps;

  /**
   * Checks the password. The attempt is counted first, under a row lock (decision 0016), so a burst
   * of parallel guesses meets the limit before any hash is checked; a right password gives the
   * attempt back. An unknown address goes through the same steps as a wrong password.
   */
  async function checkCredentials(
    request: FastifyRequest,
    email: string,
    password: string,
    secondFactor?: (user: UserRow) => Promise<'ok' | 'needed' | 'wrong'>,
  ): Promise<UserRow> {
    const ip = request.ip;
    const userAgent = request.headers['user-agent'];
    const knownSince = new Date(clock.now().getTime() - KNOWN_IP_DAYS * 86_400_000);
    const verdict = await throttle.admit([
      { rule: SIGN_IN_PER_IP, key: ip },
      { rule: SIGN_IN_PER_ACCOUNT_IP, key: `${email}|${ip}` },
      { rule: SIGN_IN_PER_ACCOUNT, key: email, exempt: (tx) => hasSignedInFrom(tx, email, ip, knownSince) },
    ]);
    if (!verdict.admitted) {
      await recordLoginEvent(db, { email, success: false, reason: 'throttled', ip, userAgent, now: clock.now() });
      throw new HttpError(429, retryMessage(verdict.retryAfterSeconds), { retryAfterSeconds: verdict.retryAfterSeconds });
    }
    const user = await findUserByEmail(db, email);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !ok) {
      await recordLoginEvent(db, { email, success: false, reason: 'bad_credentials', userId: user?.id, schoolId: user?.schoolId, ip, userAgent, now: clock.now() });
      throw unauthorized(INVALID_CREDENTIALS);
    }
    // the second factor (decision 0035): a wrong code keeps the attempt counted, like a wrong password
    const second = secondFactor ? await secondFactor(user) : 'ok';
    if (second === 'wrong') {
      await recordLoginEvent(db, { email, success: false, reason: 'bad_totp', userId: user.id, schoolId: user.schoolId, ip, userAgent, now: clock.now() });
      throw unauthorized(TOTP_INVALID, { totpRequired: true });
    }
    await throttle.release(verdict.ticket);
    // the password was right and nothing was guessed: the attempt is given back, the code is asked for
    if (second === 'needed') throw unauthorized(TOTP_NEEDED, { totpRequired: true });
    return user;
  }

  async function startSession(request: FastifyRequest, user: UserRow, rememberMe: boolean) {
    const now = clock.now();
    const base = { userId: user.id, schoolId: user.schoolId, now, ip: request.ip, userAgent: request.headers['user-agent'] };
    const payload = { uid: user.id, schoolId: user.schoolId, role: user.role };
    let rememberToken: string | undefined;
    let rememberId: string | undefined;
    if (rememberMe) {
      const remember = await createSessionRow(db, { ...base, kind: 'remember' });
      rememberId = remember.id;
      rememberToken = await tokens.sign({ ...payload, sid: remember.id, kind: 'remember' }, remember.expiresAt, now);
    }
    const session = await createSessionRow(db, { ...base, kind: 'session', rememberId });
    const token = await tokens.sign({ ...payload, sid: session.id, kind: 'session' }, session.expiresAt, now);
    const [updated] = await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
    await recordLoginEvent(db, { email: user.email, success: true, userId: user.id, schoolId: user.schoolId, ip: request.ip, userAgent: request.headers['user-agent'], now });
    const school = user.schoolId ? await findSchool(db, { schoolId: user.schoolId }) : undefined;
    const dto = school ? toSchoolDto(school, now) : null;
    return {
      success: true as const,
      token,
      ...(rememberToken ? { rememberToken } : {}),
      user: toUserDto(updated ?? user),
      school: dto,
      // a read-only session (ruling 14): said at the top level too, where the platform document's clients look
      ...(dto?.isExpired ? { requiresPayment: true as const, schoolId: dto.id } : {}),
    };
  }

  app.post(
    '/api/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'School administrator sign-in',
        body: loginSchema,
        response: { 200: sessionAnswer, 401: errorDto, 403: errorDto, 429: errorDto },
      },
    },
    async (request) => {
      const { email, password, rememberMe } = request.body;
      const user = await checkCredentials(request, email, password);
      if (user.role === 'master_admin') throw forbidden(ADMIN_MUST_USE_PORTAL, { adminLogin: true, message: ADMIN_MUST_USE_PORTAL });
      if (!user.emailConfirmedAt) throw forbidden(EMAIL_NOT_CONFIRMED, { emailNotConfirmed: true });
      const school = user.schoolId ? await findSchool(db, { schoolId: user.schoolId }) : undefined;
      if (!school) throw unauthorized(INVALID_CREDENTIALS);
      // the master administrator deactivated the school (issue 12): nobody of it signs in
      if (school.deactivatedAt) throw forbidden(SCHOOL_DEACTIVATED, { deactivated: true });
      // the owner or an administrator deactivated this staff member (ruling 32)
      if (user.deactivatedAt) throw forbidden(STAFF_MESSAGES.deactivated, { staffDeactivated: true });
      // an ended trial or plan still signs in (ruling 14): the session is read-only and can pay
      return startSession(request, user, rememberMe ?? false);
    },
  );

  app.post(
    '/api/auth/admin-login',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Master administrator sign-in. With two-step sign-in on, a right password without `code` answers 401 with `totpRequired: true`; send the same body again with the 6-digit `code`',
        body: loginSchema.extend({ code: z.string().trim().max(20).optional() }),
        response: { 200: sessionAnswer, 401: errorDto, 403: errorDto, 429: errorDto },
      },
    },
    async (request) => {
      const { email, password, rememberMe, code } = request.body;
      const user = await checkCredentials(request, email, password, async (found) => {
        if (found.role !== 'master_admin') return 'ok';
        const totp = await totpEnabled(db, found.id);
        if (!totp) return 'ok';
        if (!code) return 'needed';
        return (await useTotpCode(db, cipher, totp, code, clock.now())) ? 'ok' : 'wrong';
      });
      if (user.role !== 'master_admin') {
        throw forbidden('This portal is for master administrators. School administrators sign in at /login.');
      }
      return startSession(request, user, rememberMe ?? false);
    },
  );

  app.post(
    '/api/auth/remember-login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Exchange a remember-me token for a new session token',
        body: rememberLoginSchema,
        response: { 200: sessionAnswer, 401: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const payload = await tokens.verify(request.body.rememberToken, now);
      if (!payload || payload.kind !== 'remember') throw unauthorized(REMEMBER_EXPIRED);
      const user = await findUserById(db, payload.uid);
      if (!user || user.deactivatedAt) throw unauthorized(REMEMBER_EXPIRED);
      // used once: the answer carries the next remember-me token, and the old one stops working
      if (!(await consumeRememberSession(db, payload.sid, user.id, now))) throw unauthorized(REMEMBER_EXPIRED);
      return startSession(request, user, true);
    },
  );

  app.get(
    '/api/auth/me',
    {
      onRequest: requireUser,
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user and their school',
        security: [{ bearer: [] }],
        response: { 200: z.object({ user: userDto, school: schoolDto.nullable() }), 401: errorDto },
      },
    },
    async (request) => {
      const user = await findUserById(db, request.auth!.userId);
      if (!user) throw unauthorized();
      const school = user.schoolId ? await findSchool(db, { schoolId: user.schoolId }) : undefined;
      return { user: toUserDto(user), school: school ? toSchoolDto(school, clock.now()) : null };
    },
  );

  // Sign-out must work however the client calls it: with no body, or an empty one under a JSON
  // content type, it still revokes the bearer session (and the remember-me token opened with it).
  await app.register(async (scope) => {
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
      body === '' ? done(null, null) : json(request, body as string, done),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/api/auth/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'Revoke this session and its remember-me token (also the one sent in the body); the body is optional',
          body: z.object({ rememberToken: z.string().max(2000).optional() }).nullish(),
          response: { 200: messageDto },
        },
      },
      async (request) => {
        const now = clock.now();
        if (request.auth) await revokeSession(db, request.auth.sessionId, now);
        const remember = request.body?.rememberToken;
        if (remember) {
          const payload = await tokens.verify(remember, now);
          // only the owner of the remember token's session can revoke it
          if (payload?.kind === 'remember' && (!request.auth || payload.uid === request.auth.userId)) {
            await revokeSession(db, payload.sid, now);
          }
        }
        return { message: 'Logged out successfully' };
      },
    );
  });

  app.post(
    '/api/auth/complete-onboarding',
    {
      onRequest: requireUser,
      config: { allowWhenExpired: true },
      schema: {
        tags: ['auth'],
        summary: 'Mark the onboarding tour as seen',
        security: [{ bearer: [] }],
        response: { 200: z.object({ user: userDto }) },
      },
    },
    async (request) => {
      const [row] = await db
        .update(users)
        .set({ hasSeenOnboarding: true, isFirstLogin: false })
        .where(eq(users.id, request.auth!.userId))
        .returning();
      return { user: toUserDto(row!) };
    },
  );

  await app.register(accountRoutes);
  await app.register(totpRoutes);
}
