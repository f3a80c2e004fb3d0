import { useSession } from './session';

/**
 * What the signed-in person may do (ruling 32), for hiding menu items, tabs and buttons. The
 * server refuses anyway; this only keeps a role from seeing what it cannot use.
 *
 * The one permission table lives in src/domain/permissions.ts (server branch `staff`); this file is
 * the web's only reader of it, so the screens ask `can('expenses')` and never name roles.
 */
export type StaffRole = 'administrator' | 'accountant' | 'clerk' | 'teacher';

export type Capability =
  | 'students'
  | 'collect-fees'
  | 'fee-status'
  | 'cancel-receipt'
  | 'fee-structure'
  | 'sessions'
  | 'expenses'
  | 'reports'
  | 'results'
  | 'settings'
  | 'staff'
  | 'audit-log'
  | 'close-day'
  | 'acknowledge-closings'
  | 'cheques'
  | 'online-payments'
  | 'passouts';

const ALL: readonly StaffRole[] = ['administrator', 'accountant', 'clerk', 'teacher'];
const MONEY: readonly StaffRole[] = ['administrator', 'accountant'];
const COUNTER: readonly StaffRole[] = ['administrator', 'accountant', 'clerk'];

const TABLE: Record<Capability, readonly StaffRole[]> = {
  students: COUNTER,
  'collect-fees': COUNTER,
  'fee-status': COUNTER,
  'cancel-receipt': MONEY,
  'fee-structure': ['administrator'],
  sessions: ['administrator'],
  expenses: MONEY,
  reports: MONEY,
  results: ['administrator', 'teacher'],
  settings: ['administrator'],
  staff: ['administrator'],
  'audit-log': ['administrator'],
  'close-day': COUNTER,
  'acknowledge-closings': MONEY,
  cheques: MONEY,
  'online-payments': COUNTER,
  passouts: MONEY,
};

export function roleCan(role: StaffRole, capability: Capability): boolean {
  return TABLE[capability].includes(role);
}

/** A school user without a staff role is the owner of a school that never invited anyone. */
export function staffRoleOf(user: { role: string; staffRole?: StaffRole | null } | null | undefined): StaffRole | null {
  if (!user || user.role !== 'school_admin') return null;
  return user.staffRole ?? 'administrator';
}

export const ROLES = ALL;

/** `can('expenses')` for the signed-in person; false while signed out. */
export function useCan(): (capability: Capability) => boolean {
  const { me } = useSession();
  const role = staffRoleOf(me?.user);
  return (capability) => role !== null && roleCan(role, capability);
}
