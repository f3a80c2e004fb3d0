import { useSession } from './session';

/**
 * What the signed-in person may do (ruling 32), for hiding menu items, tabs and buttons. The
 * server refuses anyway; this only keeps a role from seeing what it cannot use.
 *
 * TEMPORARY MIRROR: the one permission table is src/domain/permissions.ts on the server branch
 * `staff`; once merged, this file only imports `can` and the types from there (same names).
 */
export type StaffRole = 'owner' | 'administrator' | 'accountant' | 'clerk' | 'teacher';
export type InvitableRole = Exclude<StaffRole, 'owner'>;
export const INVITABLE_ROLES: readonly InvitableRole[] = ['administrator', 'accountant', 'clerk', 'teacher'];

export type Permission =
  | 'school.view'
  | 'dashboard.view'
  | 'students.view'
  | 'students.edit'
  | 'fees.view'
  | 'fees.collect'
  | 'fees.setup'
  | 'receipts.cancel'
  | 'payments.reconcile'
  | 'cheques.manage'
  | 'cash.close'
  | 'cash.acknowledge'
  | 'expenses.manage'
  | 'reports.view'
  | 'results.manage'
  | 'results.view'
  | 'results.marks'
  | 'settings.manage'
  | 'billing.manage'
  | 'data.export'
  | 'staff.manage'
  | 'audit.view';

const ACCOUNTANT: readonly Permission[] = [
  'school.view',
  'dashboard.view',
  'students.view',
  'students.edit',
  'fees.view',
  'fees.collect',
  'fees.setup',
  'receipts.cancel',
  'payments.reconcile',
  'cheques.manage',
  'cash.close',
  'cash.acknowledge',
  'expenses.manage',
  'reports.view',
];
const TABLE: Record<Exclude<StaffRole, 'owner' | 'administrator'>, readonly Permission[]> = {
  accountant: ACCOUNTANT,
  clerk: ['school.view', 'dashboard.view', 'students.view', 'students.edit', 'fees.view', 'fees.collect', 'cash.close'],
  teacher: ['school.view', 'results.view', 'results.marks'],
};

export function can(role: StaffRole | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  if (role === 'owner' || role === 'administrator') return true;
  return TABLE[role].includes(permission);
}

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
