import { PERMISSIONS, STAFF_ROLES, permissionsOf, type StaffRole } from '../../domain/permissions';
import { z } from 'zod';
import type { UserRow } from './queries';

export const userDto = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(['school_admin', 'master_admin']),
  /** ruling 32: the school role and what it may do, so the web hides the rest (src/domain/permissions.ts) */
  schoolRole: z.enum(STAFF_ROLES).nullable(),
  permissions: z.array(z.enum(PERMISSIONS)),
  schoolId: z.string().nullable(),
  hasSeenOnboarding: z.boolean(),
  isFirstLogin: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserDto = z.infer<typeof userDto>;

/** A school user saved before roles existed registered the school: the owner (as the migration sets). */
export function schoolRoleOf(row: Pick<UserRow, 'role' | 'schoolRole'>): StaffRole | null {
  return row.role === 'school_admin' ? (row.schoolRole ?? 'owner') : null;
}

export function toUserDto(row: UserRow): UserDto {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    role: row.role,
    schoolRole: schoolRoleOf(row),
    permissions: row.role === 'school_admin' ? permissionsOf(schoolRoleOf(row)!) : [],
    schoolId: row.schoolId,
    hasSeenOnboarding: row.hasSeenOnboarding,
    isFirstLogin: row.isFirstLogin,
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt ? row.lastLoginAt.toISOString() : null,
  };
}

export const errorDto = z.object({ error: z.string() }).passthrough();
export const messageDto = z.object({ message: z.string() });
