import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCEPT_INVITE_PATH,
  acceptInviteSchema,
  assignmentsSchema,
  inviteStaffSchema,
  STAFF_MESSAGES,
  staffListDto,
  staffMemberDto,
  updateStaffSchema,
  upgradeOfferDto,
  userLimitMessage,
} from '../../domain/staff';
import { requireSchool, schoolIdOf } from '../auth/context';
import { errorDto, messageDto } from '../auth/dto';
import { hashPassword } from '../auth/passwords';
import { issueMailToken, revokeUserSessions, voidMailTokens } from '../auth/queries';
import { sessionCache } from '../auth/session-cache';
import { hashMailToken } from '../auth/tokens';
import { schools, userTokens, users } from '../db/schema';
import { audit } from '../lib/audit';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../lib/errors';
import { isUuid } from '../lib/ids';
import { isUniqueViolation } from '../lib/pg-errors';
import { queueMail } from '../mail/outbox';
import { inviteMail } from './mail';
import { assignmentsOf, findStaff, isOwnerRow, listStaff, replaceAssignments, toMember, userRoom } from './queries';

const tags = ['staff'];
const security = [{ bearer: [] }];
const idParams = z.object({ id: z.string() });
const NOT_FOUND = 'Staff member not found';
const manage = { onRequest: requireSchool, config: { permission: 'staff.manage' as const } };

/**
 * An invitation's insert that met the address's unique index: it was taken meanwhile (another
 * school's invitation, a registration). The check before it is per school; the index is everyone's.
 */
function emailTakenMeanwhile(error: unknown): never {
  if (isUniqueViolation(error)) throw conflict(STAFF_MESSAGES.emailTaken);
  throw error;
}

/** Staff accounts (ruling 32, docs/decisions/0045): invite, list, change role, deactivate, assign. */
export async function staffRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db, clock, config } = app.deps;
  const link = (token: string) => `${config.appUrl}${ACCEPT_INVITE_PATH}?token=${encodeURIComponent(token)}`;

  app.get(
    '/api/staff',
    {
      ...manage,
      schema: { tags, summary: 'Everyone of the school: the owner, staff and invitations, with the plan user limit', security, response: { 200: staffListDto } },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      const [members, room] = await Promise.all([listStaff(db, { schoolId }), userRoom(db, { schoolId })]);
      return { members, used: room.used, limit: room.limit, planName: room.planName };
    },
  );

  app.post(
    '/api/staff',
    {
      ...manage,
      schema: {
        tags,
        summary: 'Invite a staff member by email with a role; the invitation mail carries a single-use link to set a password',
        description: `403 { error, upgradeRequired: true } at the plan's user limit (Basic 2, Standard 5, Premium unlimited); 409 when the email already has an account. The link is APP_URL${ACCEPT_INVITE_PATH}?token=… and expires in 7 days.`,
        security,
        body: inviteStaffSchema,
        response: { 201: staffMemberDto, 400: errorDto, 403: z.union([upgradeOfferDto, errorDto]), 409: errorDto },
      },
    },
    async (request, reply) => {
      const schoolId = schoolIdOf(request);
      const { email, name, role } = request.body;
      const now = clock.now();
      // a password nobody knows until the link sets one
      const placeholder = await hashPassword(randomBytes(24).toString('base64url'));
      const member = await db.transaction(async (tx) => {
        // one invitation at a time per school, so two at once cannot both take the last seat
        await tx.execute(sql`select id from ${schools} where id = ${schoolId} for update`);
        const room = await userRoom(tx, { schoolId });
        if (room.limit !== null && room.used >= room.limit) throw new HttpError(403, userLimitMessage(room.planName, room.limit), { upgradeRequired: true });
        const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
        if (taken) throw conflict(STAFF_MESSAGES.emailTaken);
        const [school] = await tx.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId));
        const [inviter] = await tx.select({ name: users.username }).from(users).where(eq(users.id, request.auth!.userId));
        const [row] = await tx
          .insert(users)
          .values({
            schoolId,
            email,
            username: name,
            passwordHash: placeholder,
            role: 'school_admin',
            schoolRole: role,
            invitedAt: now,
            invitedBy: request.auth!.userId,
            hasSeenOnboarding: true,
            createdAt: now,
          })
          .returning();
        const token = await issueMailToken(tx, { userId: row!.id, schoolId, purpose: 'invite', now });
        await queueMail(tx, {
          ...inviteMail({ to: email, name, schoolName: school!.name, invitedBy: inviter?.name ?? school!.name, role, link: link(token) }),
          kind: 'staff-invite',
          schoolId,
          now,
        });
        await audit(tx, request, { action: 'staff.invite', entity: 'user', entityId: row!.id, after: { email, name, role } });
        return toMember(row!, []);
      }).catch(emailTakenMeanwhile);
      return reply.status(201).send(member);
    },
  );

  app.post(
    '/api/staff/:id/resend-invite',
    {
      ...manage,
      schema: { tags, summary: 'Send a new invitation link (the earlier one stops working)', security, params: idParams, response: { 200: messageDto, 404: errorDto, 409: errorDto } },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      if (!isUuid(request.params.id)) throw notFound(NOT_FOUND);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const row = await findStaff(tx, { schoolId, userId: request.params.id });
        if (!row) throw notFound(NOT_FOUND);
        if (!row.invitedAt || row.emailConfirmedAt) throw conflict(STAFF_MESSAGES.inviteUsed);
        const [school] = await tx.select({ name: schools.name }).from(schools).where(eq(schools.id, schoolId));
        const token = await issueMailToken(tx, { userId: row.id, schoolId, purpose: 'invite', now });
        await queueMail(tx, {
          ...inviteMail({ to: row.email, name: row.username, schoolName: school!.name, invitedBy: school!.name, role: row.schoolRole ?? 'clerk', link: link(token) }),
          kind: 'staff-invite',
          schoolId,
          now,
        });
      });
      return { message: 'A new invitation has been sent.' };
    },
  );

  app.put(
    '/api/staff/:id',
    {
      ...manage,
      schema: {
        tags,
        summary: 'Change a staff member\'s role or name, deactivate (their sessions end at once) or reactivate',
        description: 'The owner cannot be changed or deactivated (403), nor can you change your own role or deactivate yourself. Reactivating takes a seat of the plan: 403 { upgradeRequired } when none is left.',
        security,
        params: idParams,
        body: updateStaffSchema,
        response: { 200: staffMemberDto, 400: errorDto, 403: z.union([upgradeOfferDto, errorDto]), 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      if (!isUuid(request.params.id)) throw notFound(NOT_FOUND);
      const { role, active, name } = request.body;
      const now = clock.now();
      const member = await db.transaction(async (tx) => {
        await tx.execute(sql`select id from ${schools} where id = ${schoolId} for update`);
        const row = await findStaff(tx, { schoolId, userId: request.params.id });
        if (!row) throw notFound(NOT_FOUND);
        if (isOwnerRow(row) && (role !== undefined || active !== undefined)) throw forbidden(STAFF_MESSAGES.ownerFixed);
        if (row.id === request.auth!.userId && (role !== undefined || active === false)) throw forbidden(STAFF_MESSAGES.notYourself);
        const changes: Partial<typeof users.$inferInsert> = {};
        if (name !== undefined) changes.username = name;
        if (role !== undefined) changes.schoolRole = role;
        if (active === false && !row.deactivatedAt) changes.deactivatedAt = now;
        if (active === true && row.deactivatedAt) {
          const room = await userRoom(tx, { schoolId });
          if (room.limit !== null && room.used >= room.limit) throw new HttpError(403, userLimitMessage(room.planName, room.limit), { upgradeRequired: true });
          changes.deactivatedAt = null;
        }
        const [updated] = Object.keys(changes).length ? await tx.update(users).set(changes).where(eq(users.id, row.id)).returning() : [row];
        if (changes.deactivatedAt) {
          // sessions end at once (ruling 32): the rows go, and with them every token naming them
          await revokeUserSessions(tx, row.id, now);
          await voidMailTokens(tx, row.id, ['invite', 'reset_password', 'change_email'], now);
        }
        if (role !== undefined && role !== 'teacher') await replaceAssignments(tx, { schoolId, userId: row.id, assignments: [] });
        await audit(tx, request, {
          action: active === false ? 'staff.deactivate' : active === true ? 'staff.reactivate' : 'staff.update',
          entity: 'user',
          entityId: row.id,
          before: { role: row.schoolRole, active: !row.deactivatedAt, name: row.username },
          after: { role: updated!.schoolRole, active: !updated!.deactivatedAt, name: updated!.username },
        });
        const assignments = await assignmentsOf(tx, { schoolId, userIds: [row.id] });
        return toMember(updated!, assignments.get(row.id) ?? []);
      });
      // a role or access change takes effect on the next request, not after the session cache ages
      sessionCache.forgetUser(member.id);
      return member;
    },
  );

  app.put(
    '/api/staff/:id/assignments',
    {
      ...manage,
      schema: {
        tags,
        summary: "Replace a teacher's classes/sections and subjects; results and marks routes then show only those",
        description: 'section null: every section of the class; subjects []: every subject of it.',
        security,
        params: idParams,
        body: assignmentsSchema,
        response: { 200: staffMemberDto, 400: errorDto, 404: errorDto },
      },
    },
    async (request) => {
      const schoolId = schoolIdOf(request);
      if (!isUuid(request.params.id)) throw notFound(NOT_FOUND);
      return db.transaction(async (tx) => {
        // the member's row locked first: two saves of the list take turns (each a delete and an
        // insert, which side by side left both lists), and a role change in flight commits before
        // the role is checked
        await tx.execute(sql`select id from ${users} where id = ${request.params.id} and school_id = ${schoolId} for update`);
        const row = await findStaff(tx, { schoolId, userId: request.params.id });
        if (!row) throw notFound(NOT_FOUND);
        if (row.schoolRole !== 'teacher') throw badRequest(STAFF_MESSAGES.teacherOnly);
        await replaceAssignments(tx, { schoolId, userId: row.id, assignments: request.body.assignments });
        await audit(tx, request, { action: 'staff.assignments', entity: 'user', entityId: row.id, after: request.body.assignments });
        return toMember(row, request.body.assignments);
      });
    },
  );

  app.post(
    '/api/staff/accept-invite',
    {
      schema: {
        tags,
        summary: 'Set a password from the invitation link (public: the single-use token proves the inbox); then sign in',
        body: acceptInviteSchema,
        response: { 200: messageDto.extend({ email: z.string() }), 400: errorDto },
      },
    },
    async (request) => {
      const now = clock.now();
      const passwordHash = await hashPassword(request.body.password);
      const email = await db.transaction(async (tx) => {
        const [token] = await tx
          .select()
          .from(userTokens)
          .where(and(eq(userTokens.tokenHash, hashMailToken(request.body.token)), eq(userTokens.purpose, 'invite')))
          .limit(1);
        if (!token) throw badRequest(STAFF_MESSAGES.inviteInvalid);
        if (token.usedAt) throw badRequest(STAFF_MESSAGES.inviteUsed);
        if (token.expiresAt <= now) throw badRequest(STAFF_MESSAGES.inviteExpired);
        // used in the same statement that checks it, so two clicks cannot both set a password
        const [used] = await tx
          .update(userTokens)
          .set({ usedAt: now })
          .where(and(eq(userTokens.id, token.id), isNull(userTokens.usedAt)))
          .returning({ id: userTokens.id });
        if (!used) throw badRequest(STAFF_MESSAGES.inviteUsed);
        const [user] = await tx
          .update(users)
          .set({ passwordHash, emailConfirmedAt: now })
          .where(and(eq(users.id, token.userId), isNull(users.deactivatedAt), inArray(users.role, ['school_admin'])))
          .returning();
        if (!user) throw badRequest(STAFF_MESSAGES.inviteInvalid);
        await audit(tx, { schoolId: user.schoolId, userId: user.id, ip: request.ip }, { action: 'staff.accept-invite', entity: 'user', entityId: user.id });
        return user.email;
      });
      return { message: 'Your password is set. Sign in with your email and password.', email };
    },
  );
}
