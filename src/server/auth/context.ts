import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { can, forbiddenMessage, type Permission, type StaffRole } from '../../domain/permissions';
import { accessState, type SubscriptionStatus } from '../../domain/plans';
import { authSessions, schools, users } from '../db/schema';
import { HttpError, unauthorized } from '../lib/errors';
import { settleDuePlan } from '../plans/timeline';
import { sessionCache, type CheckedSession } from './session-cache';

export interface AuthContext {
  sessionId: string;
  userId: string;
  email: string;
  role: 'school_admin' | 'master_admin';
  /** the school role (ruling 32) that every school route checks against its permission */
  schoolRole: StaffRole | null;
  schoolId: string | null;
  /** the school's trial or plan has ended: reads only (ruling 14) */
  accessExpired: boolean;
}

/** A school route and the permission it declares, as registered (the permission walk test reads it). */
export interface SchoolRoute {
  method: string;
  url: string;
  permission: Permission | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    schoolRoutes: SchoolRoute[];
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** a school whose trial or plan has ended may still call this write (sign-in, payment) */
    allowWhenExpired?: boolean;
    /**
     * What a school route needs (ruling 32, src/domain/permissions.ts): requireSchool refuses any
     * role the table does not give it. A school route without one is open to the owner and
     * administrators only, and the permission walk test fails for it.
     */
    permission?: Permission;
  }
}

export function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** Resolves the bearer token of every request to a live session, or leaves `request.auth` null. */
export function registerAuthContext(app: FastifyInstance): void {
  app.decorateRequest('auth', null);
  const schoolRoutes: SchoolRoute[] = [];
  app.decorate('schoolRoutes', schoolRoutes);
  app.addHook('onRoute', (route) => {
    const guards = [route.onRequest ?? []].flat();
    if (!guards.includes(requireSchool)) return;
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') schoolRoutes.push({ method, url: route.url, permission: route.config?.permission ?? null });
    }
  });
  app.addHook('onRequest', async (request) => {
    const token = readBearer(request);
    if (!token) return;
    const now = app.deps.clock.now();
    const session = sessionCache.get(token, now) ?? (await checkSession(app, token, now));
    if (!session) return;
    const { payload } = session;
    // a queued lower plan takes over at its start date (ruling 28): written before any handler reads the plan
    if (session.schoolId && session.school?.queuedStart && session.school.queuedStart <= now) {
      await settleDuePlan(app.deps.db, session.schoolId, now);
    }
    const expired = session.school ? accessState({ subscriptionStatus: session.school.status, ...session.school }, now).isExpired : false;
    request.auth = {
      sessionId: payload.sid,
      userId: session.userId,
      email: session.email,
      role: session.role,
      schoolRole: session.schoolRole,
      schoolId: session.schoolId,
      accessExpired: expired,
    };
  });
}

/** The token's signature, then its live session row with the user and school; remembered briefly. */
async function checkSession(app: FastifyInstance, token: string, now: Date): Promise<CheckedSession | null> {
  const generation = sessionCache.mark();
  const payload = await app.deps.tokens.verify(token, now);
  if (!payload || payload.kind === 'remember') return null;
  const [row] = await app.deps.db
    .select({
      userId: users.id,
      email: users.email,
      role: users.role,
      schoolRole: users.schoolRole,
      schoolId: users.schoolId,
      sessionExpiresAt: authSessions.expiresAt,
      status: schools.subscriptionStatus,
      trialEndsAt: schools.trialEndsAt,
      planEndDate: schools.planEndDate,
      queuedStart: schools.queuedStart,
      queuedEnd: schools.queuedEnd,
    })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .leftJoin(schools, eq(schools.id, users.schoolId))
    .where(
      and(
        eq(authSessions.id, payload.sid),
        eq(authSessions.userId, payload.uid),
        eq(authSessions.kind, 'session'),
        isNull(authSessions.revokedAt),
        gt(authSessions.expiresAt, now),
        isNull(users.deactivatedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const session: CheckedSession = {
    payload,
    userId: row.userId,
    email: row.email,
    role: row.role,
    schoolRole: row.schoolRole,
    schoolId: row.schoolId,
    sessionExpiresAt: payload.expiresAt && payload.expiresAt < row.sessionExpiresAt ? payload.expiresAt : row.sessionExpiresAt,
    school:
      row.schoolId && row.status
        ? { status: row.status as SubscriptionStatus, trialEndsAt: row.trialEndsAt, planEndDate: row.queuedEnd ?? row.planEndDate, queuedStart: row.queuedStart }
        : null,
  };
  sessionCache.set(token, session, now, generation);
  return session;
}

export const RENEW_MESSAGE =
  'Your trial or subscription has ended. Your data is safe and can still be viewed; to make changes, renew your plan from Upgrade Plan on the dashboard or at /subscription-required.';

function isWrite(request: FastifyRequest): boolean {
  return request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS';
}

/**
 * Route guards run as `onRequest` hooks, before the body is read or validated, so a request without
 * a session learns nothing but 401.
 */

/** Route guard: any signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.auth) throw unauthorized();
}

/**
 * Route guard for every school route: a school administrator's session, and on writes a school
 * whose trial or plan is still running (402 otherwise, with the way to renew).
 */
export async function requireSchool(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  const auth = request.auth;
  if (!auth) throw unauthorized();
  if (auth.role !== 'school_admin' || !auth.schoolId) {
    throw new HttpError(403, 'School Admin Access Required: this needs a school administrator account.');
  }
  const permission = request.routeOptions.config?.permission;
  const role = auth.schoolRole ?? 'owner';
  if (permission ? !can(role, permission) : role !== 'owner' && role !== 'administrator') {
    throw new HttpError(403, permission ? forbiddenMessage(role, permission) : 'Only the owner or an administrator can do this.', { permission: permission ?? null });
  }
  if (isWrite(request) && auth.accessExpired && !request.routeOptions.config?.allowWhenExpired) {
    throw new HttpError(402, RENEW_MESSAGE, { requiresPayment: true, schoolId: auth.schoolId });
  }
}

export async function requireMaster(request: FastifyRequest): Promise<void> {
  const auth = request.auth;
  if (!auth) throw unauthorized();
  if (auth.role !== 'master_admin') throw new HttpError(403, 'Master administrator access required');
}

/** The school of the signed-in administrator: the only source of a school id for queries. */
export function schoolIdOf(request: FastifyRequest): string {
  const id = request.auth?.schoolId;
  if (!id) throw unauthorized();
  return id;
}
