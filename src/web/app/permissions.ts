import { can, type Permission, type StaffRole } from '@/domain/permissions';
import { useSession } from './session';

/**
 * What the signed-in person may do (ruling 32), for hiding menu items, tabs and buttons. The one
 * table is src/domain/permissions.ts, the same the server enforces on every route; the server
 * refuses anyway, this only keeps a role from seeing what it cannot use.
 */
export { INVITABLE_ROLES, type InvitableRole, type Permission, type StaffRole } from '@/domain/permissions';

/** The school role of a signed-in user; a school user the server names no role for is the owner. */
export function schoolRoleOf(user: { role: string; schoolRole?: StaffRole | null } | null | undefined): StaffRole | null {
  if (!user || user.role !== 'school_admin') return null;
  return user.schoolRole ?? 'owner';
}

/** `can('expenses.manage')` for the signed-in person; false while signed out. */
export function useCan(): (permission: Permission) => boolean {
  const { me } = useSession();
  const role = schoolRoleOf(me ? { ...me.user, schoolRole: me.user.schoolRole ?? me.schoolRole } : null);
  return (permission) => can(role, permission);
}
