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

/** The roles that hold a permission besides the owner and administrators, who hold every one. */
type Holders = readonly Exclude<StaffRole, 'owner' | 'administrator'>[];
const EVERY_ROLE: Holders = ['accountant', 'clerk', 'teacher'];
/** the front desk: whoever takes money over the counter */
const DESK: Holders = ['accountant', 'clerk'];
const ACCOUNTS: Holders = ['accountant'];
const TEACHING: Holders = ['teacher'];
/** settings, staff, plan and the school's fee policy stay with the owner and administrators */
const ADMINISTRATION: Holders = [];

/**
 * THE table, one row a permission: who holds it and what a refused person is told (said with a 403).
 * A new permission is one new row here; its order is the order sessions and the staff screen list them.
 * Nobody but the owner and administrators gets a new permission unless its row names them.
 */
const TABLE_ROWS = {
  /** the school's name, logo, sessions, classes: what every screen's frame needs */
  'school.view': { holders: EVERY_ROLE, refused: 'see the school' },
  /** the dashboard's money figures */
  'dashboard.view': { holders: DESK, refused: 'see the dashboard figures' },
  'students.view': { holders: DESK, refused: 'see students' },
  'students.edit': { holders: DESK, refused: 'add or edit students' },
  /** fee status, balances, receipts and their PDFs */
  'fees.view': { holders: DESK, refused: 'see fees and receipts' },
  /** record payments (monthly, yearly, fee payment), payment links */
  'fees.collect': { holders: DESK, refused: 'collect fees' },
  /** fee structures, instalment plans (when fees fall due), opening balances, reminders: how fees are set up */
  'fees.setup': { holders: ACCOUNTS, refused: 'set up fees and reminders' },
  'receipts.cancel': { holders: ACCOUNTS, refused: 'cancel receipts' },
  /** online payments, student credit, UPI confirmations */
  'payments.reconcile': { holders: ACCOUNTS, refused: 'reconcile online payments' },
  'cheques.manage': { holders: ACCOUNTS, refused: 'manage cheques' },
  /** count and close one's own day */
  'cash.close': { holders: DESK, refused: 'close the cash of a day' },
  /** acknowledge others' closings; cancel a closed day's receipt */
  'cash.acknowledge': { holders: ACCOUNTS, refused: 'acknowledge cash closings' },
  'expenses.manage': { holders: ACCOUNTS, refused: 'manage expenses' },
  'reports.view': { holders: ACCOUNTS, refused: 'see reports' },
  /** ask for a concession or a fine waiver for a student, with a reason (issue 16) */
  'concessions.request': { holders: DESK, refused: 'ask for concessions or fine waivers' },
  /** approve or reject concessions (Administrator, Accountant: issue 16) */
  'concessions.approve': { holders: ACCOUNTS, refused: 'approve concessions' },
  /** approve or reject a late fine's waiver */
  'fines.waive': { holders: ACCOUNTS, refused: 'approve fine waivers' },
  /** concession types, the late-fine rule, Tally ledger names: the school's fee policy (instalment plans are fee setup) */
  'fee-policy.manage': {
    holders: ADMINISTRATION,
    refused: 'change the fee policy (concession types, late fines, Tally ledgers)',
  },
  /** the accountant's Tally XML and journal CSV */
  'tally.export': { holders: ACCOUNTS, refused: 'export the books for Tally' },
  /** exam setup: subjects, exams, grading */
  'results.manage': { holders: ADMINISTRATION, refused: 'set up exams and subjects' },
  'results.view': { holders: TEACHING, refused: 'see results' },
  'results.marks': { holders: TEACHING, refused: 'enter marks' },
  'settings.manage': { holders: ADMINISTRATION, refused: 'change settings' },
  /** the plan, subscription payments and invoices */
  'billing.manage': { holders: ADMINISTRATION, refused: 'manage the plan and payments' },
  /** the whole-school data export */
  'data.export': { holders: ADMINISTRATION, refused: "export the school's data" },
  'staff.manage': { holders: ADMINISTRATION, refused: 'manage staff' },
  'audit.view': { holders: ADMINISTRATION, refused: 'see the audit log' },
} as const satisfies Record<string, { holders: Holders; refused: string }>;

export type Permission = keyof typeof TABLE_ROWS;
export const PERMISSIONS = Object.keys(TABLE_ROWS) as [Permission, ...Permission[]];

const holdersOf = (role: StaffRole): readonly Permission[] =>
  role === 'owner' || role === 'administrator' ? PERMISSIONS : PERMISSIONS.filter((p) => (TABLE_ROWS[p].holders as Holders).includes(role));

/** The table by role. Owner and Administrator differ only in that the owner cannot be removed. */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = Object.fromEntries(
  STAFF_ROLES.map((role) => [role, holdersOf(role)]),
) as Record<StaffRole, readonly Permission[]>;

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
export const PERMISSION_LABELS: Record<Permission, string> = Object.fromEntries(
  PERMISSIONS.map((p) => [p, TABLE_ROWS[p].refused]),
) as Record<Permission, string>;

export function forbiddenMessage(role: StaffRole, permission: Permission): string {
  return `Your role (${ROLE_LABELS[role]}) does not allow you to ${PERMISSION_LABELS[permission]}. Ask the school's owner or an administrator.`;
}
