import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { StaffMember, StaffStatus, TeacherAssignment } from '../../domain/staff';
import { schoolRoleOf } from '../auth/dto';
import type { Db } from '../db/client';
import { plans, schools, teacherAssignments, users } from '../db/schema';

type UserRow = typeof users.$inferSelect;

export function staffStatus(row: Pick<UserRow, 'deactivatedAt' | 'invitedAt' | 'emailConfirmedAt'>): StaffStatus {
  if (row.deactivatedAt) return 'inactive';
  return row.invitedAt && !row.emailConfirmedAt ? 'invited' : 'active';
}

/** Every person of the school, the owner first, with teachers' assignments (two queries, no loop). */
export async function listStaff(db: Db, { schoolId }: { schoolId: string }): Promise<StaffMember[]> {
  const rows = await db
    .select()
    .from(users)
    .where(and(eq(users.schoolId, schoolId), eq(users.role, 'school_admin')))
    .orderBy(sql`case when ${users.schoolRole} = 'owner' or ${users.schoolRole} is null then 0 else 1 end`, asc(users.createdAt));
  const assignments = await assignmentsOf(db, { schoolId, userIds: rows.map((r) => r.id) });
  return rows.map((r) => toMember(r, assignments.get(r.id) ?? []));
}

export function toMember(r: UserRow, assignments: TeacherAssignment[]): StaffMember {
  const role = schoolRoleOf(r)!;
  return {
    id: r.id,
    name: r.username,
    email: r.email,
    role,
    status: staffStatus(r),
    isOwner: role === 'owner',
    invitedAt: r.invitedAt?.toISOString() ?? null,
    lastLoginAt: r.lastLoginAt?.toISOString() ?? null,
    assignments,
  };
}

export async function findStaff(db: Db, { schoolId, userId }: { schoolId: string; userId: string }): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.schoolId, schoolId), eq(users.role, 'school_admin')))
    .limit(1);
  return row;
}

export async function assignmentsOf(db: Db, { schoolId, userIds }: { schoolId: string; userIds: string[] }): Promise<Map<string, TeacherAssignment[]>> {
  const map = new Map<string, TeacherAssignment[]>();
  if (userIds.length === 0) return map;
  const rows = await db
    .select()
    .from(teacherAssignments)
    .where(and(eq(teacherAssignments.schoolId, schoolId), inArray(teacherAssignments.userId, userIds)))
    .orderBy(asc(teacherAssignments.className), asc(teacherAssignments.section));
  for (const r of rows) {
    const list = map.get(r.userId) ?? [];
    list.push({ className: r.className, section: r.section, subjects: r.subjects });
    map.set(r.userId, list);
  }
  return map;
}

export async function replaceAssignments(db: Db, { schoolId, userId, assignments }: { schoolId: string; userId: string; assignments: TeacherAssignment[] }): Promise<void> {
  await db.delete(teacherAssignments).where(and(eq(teacherAssignments.schoolId, schoolId), eq(teacherAssignments.userId, userId)));
  if (assignments.length > 0) {
    await db.insert(teacherAssignments).values(assignments.map((a) => ({ schoolId, userId, className: a.className, section: a.section, subjects: a.subjects })));
  }
}

export interface UserRoom {
  planName: string;
  limit: number | null;
  /** active and invited users: an invitation holds a seat until it is accepted or the person deactivated */
  used: number;
}

/** The plan's user limit (ruling 32) and how many seats are taken, read like the student limit. */
export async function userRoom(db: Db, { schoolId }: { schoolId: string }): Promise<UserRoom> {
  const [row] = await db
    .select({
      planName: plans.name,
      limit: plans.userLimit,
      used: sql<number>`(select count(*) from ${users} u where u.school_id = ${schoolId} and u.role = 'school_admin' and u.deactivated_at is null)`,
    })
    .from(schools)
    .innerJoin(plans, eq(plans.id, schools.subscriptionPlan))
    .where(eq(schools.id, schoolId))
    .limit(1);
  if (!row) throw new Error(`school ${schoolId} has no plan`);
  return { planName: row.planName, limit: row.limit, used: Number(row.used) };
}

/** The display names of users, for "Received by", closings and registers. */
export async function userNames(db: Db, { schoolId, userIds }: { schoolId: string; userIds: string[] }): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, name: users.username })
    .from(users)
    .where(and(eq(users.schoolId, schoolId), inArray(users.id, userIds)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export const isOwnerRow = (row: Pick<UserRow, 'role' | 'schoolRole'>): boolean => schoolRoleOf(row) === 'owner';
