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
  createSessionRow,
  findLiveSession,
  findUserByEmail,
  findUserById,
  recordLoginEvent,
  revokeSession,
  type UserRow,
} from './queries';
import { retryMessage } from './rate-limit';

export const EMAIL_NOT_CONFIRMED =
  'Please confirm your email address before signing in. Check your inbox for a confirmation email.';
export const INVALID_CREDENTIALS = 'Invalid email or password';
export const ADMIN_MUST_USE_PORTAL = 'Master administrators must use the dedicated admin portal.';

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

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, tokens, loginLimiter } = app.deps;

  /** Checks the password with rate limiting and sign-in history; returns the user or throws. */
  async function checkCredentials(request: FastifyRequest, email: string, password: string): Promise<UserRow> {
    const now = clock.now();
    const wait = await loginLimiter.retryAfterSeconds(email);
    if (wait > 0) {
      throw new HttpError(429, retryMessage(wait), { retryAfterSeconds: wait });
    }
    const user = await findUserByEmail(db, email);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    if (!user || !ok) {
      await recordLoginEvent(db, { email, success: false, reason: 'bad_credentials', userId: user?.id, schoolId: user?.schoolId, ip: request.ip, now });
      throw unauthorized(INVALID_CREDENTIALS);
    }
    return user;
  }

  async function startSession(request: FastifyRequest, user: UserRow, rememberMe: boolean) {
    const now = clock.now();
    const base = { userId: user.id, schoolId: user.schoolId, now, ip: request.ip, userAgent: request.headers['user-agent'] };
    const session = await createSessionRow(db, { ...base, kind: 'session' });
    const payload = { uid: user.id, schoolId: user.schoolId, role: user.role };
    const token = await tokens.sign({ ...payload, sid: session.id, kind: 'session' }, session.expiresAt, now);
    let rememberToken: string | undefined;
    if (rememberMe) {
      const remember = await createSessionRow(db, { ...base, kind: 'remember' });
      rememberToken = await tokens.sign({ ...payload, sid: remember.id, kind: 'remember' }, remember.expiresAt, now);
    }
    const [updated] = await db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
    await recordLoginEvent(db, { email: user.email, success: true, userId: user.id, schoolId: user.schoolId, ip: request.ip, now });
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
      if (!user.schoolId || !(await findSchool(db, { schoolId: user.schoolId }))) throw unauthorized(INVALID_CREDENTIALS);
      // an ended trial or plan still signs in (ruling 14): the session is read-only and can pay
      return startSession(request, user, rememberMe ?? false);
    },
  );

  app.post(
    '/api/auth/admin-login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Master administrator sign-in',
        body: loginSchema,
        response: { 200: sessionAnswer, 401: errorDto, 403: errorDto, 429: errorDto },
      },
    },
    async (request) => {
      const { email, password, rememberMe } = request.body;
      const user = await checkCredentials(request, email, password);
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
      if (!payload || payload.kind !== 'remember') throw unauthorized('Your saved sign-in has expired. Please sign in again.');
      const row = await findLiveSession(db, payload.sid, now);
      const user = row ? await findUserById(db, row.userId) : undefined;
      if (!row || !user || row.kind !== 'remember') throw unauthorized('Your saved sign-in has expired. Please sign in again.');
      const answer = await startSession(request, user, false);
      return { ...answer, rememberToken: request.body.rememberToken };
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

  app.post(
    '/api/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke this session (and the remember-me token, when sent)',
        body: z.object({ rememberToken: z.string().max(2000).optional() }).optional(),
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
}
