import { z } from 'zod';
import { newPasswordSchema } from './password-policy';
import { INVITABLE_ROLES, PERMISSIONS, STAFF_ROLES } from './permissions';

/**
 * Staff accounts (ruling 32, docs/decisions/0045): the wire shapes of GET/POST/PUT /api/staff, the
 * invitation, teachers' assignments and the audit log. Server and web read these same schemas.
 */

export const INVITE_VALID_DAYS = 7;
/** 32 random bytes: well above the 128 bits a guessable link must not have */
export const INVITE_TOKEN_BYTES = 32;
export const ACCEPT_INVITE_PATH = '/accept-invite';

export const STAFF_MESSAGES = {
  nameRequired: 'Please enter the name of the staff member',
  emailInvalid: 'Please enter a valid email address',
  roleInvalid: 'Role must be Administrator, Accountant, Clerk or Teacher',
  emailTaken: 'This email address already has an account',
  ownerFixed: "The owner's role and access cannot be changed: the owner registered the school and cannot be removed.",
  notYourself: 'You cannot deactivate your own account or change your own role.',
  nothingToChange: 'Send a role or active (true/false) to change',
  inviteInvalid: 'This invitation link is not valid. Ask the school to send a new one.',
  inviteExpired: 'This invitation link has expired. Ask the school to send a new one.',
  inviteUsed: 'This invitation has already been accepted. Sign in with your email and password.',
  deactivated: 'Your account has been deactivated by the school. Ask the owner or an administrator.',
  teacherOnly: 'Only a teacher has class and subject assignments',
} as const;

export function userLimitMessage(planName: string, limit: number): string {
  return `Your ${planName} plan allows up to ${limit} users. Upgrade your plan to invite more staff.`;
}

const trimmed = (message: string, max: number) =>
  z
    .string({ error: message })
    .nullish()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().min(1, message).max(max, `At most ${max} characters`));

export const inviteStaffSchema = z.object({
  email: trimmed(STAFF_MESSAGES.emailInvalid, 254).pipe(z.email(STAFF_MESSAGES.emailInvalid)),
  name: trimmed(STAFF_MESSAGES.nameRequired, 100),
  role: z.enum(INVITABLE_ROLES, { error: STAFF_MESSAGES.roleInvalid }),
});
export type InviteStaffInput = z.infer<typeof inviteStaffSchema>;

/** Either or both; the owner's row refuses both (ruling 32: the owner cannot be removed). */
export const updateStaffSchema = z
  .object({
    role: z.enum(INVITABLE_ROLES, { error: STAFF_MESSAGES.roleInvalid }).optional(),
    active: z.boolean({ error: 'active must be true or false' }).optional(),
    name: trimmed(STAFF_MESSAGES.nameRequired, 100).optional(),
  })
  .refine((v) => v.role !== undefined || v.active !== undefined || v.name !== undefined, STAFF_MESSAGES.nothingToChange);
export type UpdateStaffInput = z.infer<typeof updateStaffSchema>;

export const acceptInviteSchema = z.object({
  token: z.string({ error: STAFF_MESSAGES.inviteInvalid }).min(1, STAFF_MESSAGES.inviteInvalid).max(200, STAFF_MESSAGES.inviteInvalid),
  password: newPasswordSchema,
});

/** One class (and optionally one section) a teacher teaches; no subjects means every subject of it. */
export const teacherAssignmentSchema = z.object({
  className: z.string().trim().min(1, 'Choose a class').max(40),
  section: z
    .string()
    .trim()
    .max(10)
    .nullish()
    .transform((v) => (v ? v : null)),
  subjects: z.array(z.string().trim().min(1).max(80)).max(40).default([]),
});
export type TeacherAssignment = z.infer<typeof teacherAssignmentSchema>;

export const assignmentsSchema = z.object({ assignments: z.array(teacherAssignmentSchema).max(60, 'At most 60 assignments') });

/** What a teacher's assignments allow: a class, its section (null: all sections) and a subject (empty: all). */
export function assignmentCovers(
  assignments: readonly TeacherAssignment[],
  target: { className: string; section?: string | null; subject?: string | null },
): boolean {
  return assignments.some(
    (a) =>
      a.className === target.className &&
      (a.section === null || target.section == null || a.section === target.section) &&
      (a.subjects.length === 0 || target.subject == null || a.subjects.includes(target.subject)),
  );
}

/** An assignment as answered (no input transforms in an answer's schema). */
export const assignmentDto = z.object({ className: z.string(), section: z.string().nullable(), subjects: z.array(z.string()) });

export const STAFF_STATUSES = ['invited', 'active', 'inactive'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const staffMemberDto = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(STAFF_ROLES),
  /** invited: the link is not accepted yet; inactive: deactivated, cannot sign in */
  status: z.enum(STAFF_STATUSES),
  isOwner: z.boolean(),
  invitedAt: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  assignments: z.array(assignmentDto),
});
export type StaffMember = z.infer<typeof staffMemberDto>;

export const staffListDto = z.object({
  members: z.array(staffMemberDto),
  /** users counted against the plan: everyone active or invited */
  used: z.number().int(),
  /** null: unlimited */
  limit: z.number().int().nullable(),
  planName: z.string(),
});
export type StaffList = z.infer<typeof staffListDto>;

/** The 403 at the plan's user limit: the same shape the student limit answers. */
export const upgradeOfferDto = z.object({ error: z.string(), upgradeRequired: z.literal(true) });

/** What the session check (/api/auth/me) adds for the web: the role and what it may do. */
export const sessionRoleDto = z.object({
  schoolRole: z.enum(STAFF_ROLES).nullable(),
  permissions: z.array(z.enum(PERMISSIONS)),
  name: z.string().nullable(),
});

// ---- audit log (ruling 3) ----

export const auditQuerySchema = z.object({
  userId: z.uuid('userId must be a user id').optional(),
  action: z.string().trim().max(80).optional(),
  from: z.iso.date('from must be a date (YYYY-MM-DD)').optional(),
  to: z.iso.date('to must be a date (YYYY-MM-DD)').optional(),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditRowDto = z.object({
  id: z.string(),
  at: z.string(),
  userId: z.string().nullable(),
  userName: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
});
export const auditPageDto = z.object({
  rows: z.array(auditRowDto),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** the actions present in the school's log, for the filter */
  actions: z.array(z.string()),
});
export type AuditPage = z.infer<typeof auditPageDto>;
