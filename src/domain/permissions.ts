/**
 * Staff roles and the ONE permission table (ruling 32, docs/decisions/0045). The server enforces it
 * on every school route (each route names its permission in its config); the web app reads the same
 * table to hide what a role cannot do. Nothing else decides who may do what.
 */

export const STAFF_ROLES = ['owner', 'administrator', 'accountant', 'clerk', 'teacher'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** The roles an invitation may give: the owner is the one who registered the school, never invited. */
export const INVITABLE_ROLES = ['administrator', 'accountant', 'clerk', 'teacher'] as const;
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export const ROLE_LABELS: Record<StaffRole, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  accountant: 'Accountant',
  clerk: 'Clerk',
  teacher: 'Teacher',
};

export const ROLE_DESCRIPTIONS: Record<StaffRole, string> = {
  owner: 'Registered the school. Everything, and cannot be removed.',
  administrator: 'Everything, including settings and staff.',
  accountant: 'Fees, receipts including cancellation, expenses, cheques and reports. No settings or staff.',
  clerk: 'Collects fees, prints receipts, adds and edits students, sees fee status, closes own cash. No cancellation, expenses, reports or settings.',
  teacher: 'Results and marks of the classes and subjects assigned. No money.',
};

export const PERMISSIONS = [
  /** the school's name, logo, sessions, classes: what every screen's frame needs */
  'school.view',
  /** the dashboard's money figures */
  'dashboard.view',
  'students.view',
  'students.edit',
  /** fee status, balances, receipts and their PDFs */
  'fees.view',
  /** record payments (monthly, yearly, fee payment), payment links */
  'fees.collect',
  /** fee structures, instalment plans (when fees fall due), opening balances, reminders: how fees are set up */
  'fees.setup',
  'receipts.cancel',
  /** online payments, student credit, UPI confirmations */
  'payments.reconcile',
  'cheques.manage',
  /** count and close one's own day */
  'cash.close',
  /** acknowledge others' closings; cancel a closed day's receipt */
  'cash.acknowledge',
  'expenses.manage',
  'reports.view',
  /** ask for a concession or a fine waiver for a student, with a reason (issue 16) */
  'concessions.request',
  /** approve or reject concessions (Administrator, Accountant: issue 16) */
  'concessions.approve',
  /** approve or reject a late fine's waiver */
  'fines.waive',
  /** concession types, the late-fine rule, Tally ledger names: the school's fee policy (instalment plans are fee setup) */
  'fee-policy.manage',
  /** the accountant's Tally XML and journal CSV */
  'tally.export',
  /** exam setup: subjects, exams, grading */
  'results.manage',
  'results.view',
  'results.marks',
  'settings.manage',
  /** the plan, subscription payments and invoices */
  'billing.manage',
  /** the whole-school data export */
  'data.export',
  'staff.manage',
  'audit.view',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYTHING: readonly Permission[] = PERMISSIONS;

/** The table: what each role may do. Owner and Administrator differ only in that the owner cannot be removed. */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: EVERYTHING,
  administrator: EVERYTHING,
  accountant: [
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
    'concessions.request',
    'concessions.approve',
    'fines.waive',
    'tally.export',
  ],
  clerk: ['school.view', 'dashboard.view', 'students.view', 'students.edit', 'fees.view', 'fees.collect', 'cash.close', 'concessions.request'],
  teacher: ['school.view', 'results.view', 'results.marks'],
};

const TABLE: Record<StaffRole, ReadonlySet<Permission>> = Object.fromEntries(
  STAFF_ROLES.map((role) => [role, new Set(ROLE_PERMISSIONS[role])]),
) as unknown as Record<StaffRole, ReadonlySet<Permission>>;

/** The one question every guard and every hidden button asks. */
export function can(role: StaffRole | null | undefined, permission: Permission): boolean {
  return role ? TABLE[role].has(permission) : false;
}

export function permissionsOf(role: StaffRole): Permission[] {
  return [...ROLE_PERMISSIONS[role]];
}

export const isStaffRole = (value: unknown): value is StaffRole => typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);

/** Said with a 403 when a role lacks a permission. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  'school.view': 'see the school',
  'dashboard.view': 'see the dashboard figures',
  'students.view': 'see students',
  'students.edit': 'add or edit students',
  'fees.view': 'see fees and receipts',
  'fees.collect': 'collect fees',
  'fees.setup': 'set up fees and reminders',
  'receipts.cancel': 'cancel receipts',
  'payments.reconcile': 'reconcile online payments',
  'cheques.manage': 'manage cheques',
  'cash.close': 'close the cash of a day',
  'cash.acknowledge': 'acknowledge cash closings',
  'expenses.manage': 'manage expenses',
  'reports.view': 'see reports',
  'concessions.request': 'ask for concessions or fine waivers',
  'concessions.approve': 'approve concessions',
  'fines.waive': 'approve fine waivers',
  'fee-policy.manage': 'change the fee policy (concession types, late fines, Tally ledgers)',
  'tally.export': 'export the books for Tally',
  'results.manage': 'set up exams and subjects',
  'results.view': 'see results',
  'results.marks': 'enter marks',
  'settings.manage': 'change settings',
  'billing.manage': 'manage the plan and payments',
  'data.export': 'export the school\'s data',
  'staff.manage': 'manage staff',
  'audit.view': 'see the audit log',
};

export function forbiddenMessage(role: StaffRole, permission: Permission): string {
  return `Your role (${ROLE_LABELS[role]}) does not allow you to ${PERMISSION_LABELS[permission]}. Ask the school's owner or an administrator.`;
}
