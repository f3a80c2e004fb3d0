import type { FastifyRequest } from 'fastify';
import { assignmentCovers } from '../../domain/staff';
import type { Db } from '../db/client';
import { forbidden } from '../lib/errors';
import { assignmentsOf } from './queries';

export const NOT_ASSIGNED = 'This class and section are not assigned to you. Ask the owner or an administrator to assign them.';
export const subjectNotAssigned = (subject: string) =>
  `${subject} is not one of your subjects in this class. Ask the owner or an administrator to assign it.`;

/** Which subjects of a class someone may see and mark: every subject for any role but a teacher. */
export interface SubjectScope {
  allows: (subject: string) => boolean;
  /** every subject of the class (a class teacher, or any other role) */
  every: boolean;
}
const EVERY_SUBJECT: SubjectScope = { allows: () => true, every: true };
export const WHOLE_CLASS_ONLY = 'Marksheets show every subject of the class: they are for the teachers assigned the whole class. Ask the owner or an administrator.';

/**
 * A teacher sees and marks only the classes and subjects assigned to them (ruling 32); every other
 * role passes. Refuses a class or section not assigned, and answers which of its subjects are.
 */
export async function assertTeacherCovers(
  db: Db,
  request: FastifyRequest,
  target: { className: string | undefined; section?: string | null },
): Promise<SubjectScope> {
  const auth = request.auth;
  if (auth?.schoolRole !== 'teacher' || !auth.schoolId) return EVERY_SUBJECT;
  if (!target.className) throw forbidden(NOT_ASSIGNED);
  const className = target.className;
  const section = target.section ?? null;
  const assignments = (await assignmentsOf(db, { schoolId: auth.schoolId, userIds: [auth.userId] })).get(auth.userId) ?? [];
  if (!assignmentCovers(assignments, { className, section })) throw forbidden(NOT_ASSIGNED);
  const every = assignments.some((a) => a.subjects.length === 0 && assignmentCovers([a], { className, section }));
  return { allows: (subject) => assignmentCovers(assignments, { className, section, subject }), every };
}

/** A marksheet carries every subject: a teacher of some subjects only is refused it. */
export async function assertTeacherCoversWholeClass(db: Db, request: FastifyRequest, target: { className: string | undefined; section?: string | null }): Promise<void> {
  if (!(await assertTeacherCovers(db, request, target)).every) throw forbidden(WHOLE_CLASS_ONLY);
}

/** A marks save by a teacher names only their subjects: the first other subject is refused, nothing is saved. */
export function assertSubjectsCovered(scope: SubjectScope, subjects: readonly string[]): void {
  const outside = subjects.find((s) => !scope.allows(s.trim()));
  if (outside !== undefined) throw forbidden(subjectNotAssigned(outside.trim()));
}
