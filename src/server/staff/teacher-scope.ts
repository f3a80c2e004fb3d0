import type { FastifyRequest } from 'fastify';
import { assignmentCovers } from '../../domain/staff';
import type { Db } from '../db/client';
import { forbidden } from '../lib/errors';
import { assignmentsOf } from './queries';

export const NOT_ASSIGNED = 'This class and section are not assigned to you. Ask the owner or an administrator to assign them.';

/** A teacher sees and marks only assigned classes (ruling 32); every other role passes. */
export async function assertTeacherCovers(db: Db, request: FastifyRequest, target: { className: string | undefined; section?: string | null }): Promise<void> {
  const auth = request.auth;
  if (auth?.schoolRole !== 'teacher' || !auth.schoolId) return;
  if (!target.className) throw forbidden(NOT_ASSIGNED);
  const assignments = (await assignmentsOf(db, { schoolId: auth.schoolId, userIds: [auth.userId] })).get(auth.userId) ?? [];
  if (!assignmentCovers(assignments, { className: target.className, section: target.section ?? null })) throw forbidden(NOT_ASSIGNED);
}
