import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BOARDS, DEFAULT_BOARD } from '../../../domain/boards';
import { STAFF_ROLES } from '../../../domain/permissions';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** The plan catalogue (ruling 11): the only source of prices. Prices exclude GST. */
export const plans = pgTable('plans', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  monthlyPricePaise: bigint('monthly_price_paise', { mode: 'number' }).notNull(),
  yearlyPricePaise: bigint('yearly_price_paise', { mode: 'number' }).notNull(),
  /** null: unlimited */
  studentLimit: integer('student_limit'),
  /** school users (owner and staff, invited ones included) the plan allows; null: unlimited (ruling 32) */
  userLimit: integer('user_limit'),
  features: jsonb('features').$type<string[]>().notNull(),
  recommended: boolean('recommended').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
  /** the first-time discount of a school's first paid order (ruling 11), editable per plan */
  firstTimeDiscountPercent: integer('first_time_discount_percent').notNull().default(50),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const schools = pgTable(
  'schools',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    schoolCode: text('school_code'),
    /** the examination board (decision 0032): which subject list a class starts with in Results */
    board: text('board', { enum: BOARDS }).notNull().default(DEFAULT_BOARD),
    /** the place of supply of its tax invoices (ruling 33) and its GSTIN when registered */
    state: text('state'),
    gstin: text('gstin'),
    /** set by the master administrator: nobody of the school may sign in until reactivated */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    subscriptionPlan: text('subscription_plan').notNull().default('basic').references(() => plans.id),
    subscriptionStatus: text('subscription_status', { enum: ['trial', 'active', 'expired', 'cancelled'] })
      .notNull()
      .default('trial'),
    /** null until the administrator confirms the email address: the trial starts then (ruling 12) */
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    planStartDate: timestamp('plan_start_date', { withTimezone: true }),
    planEndDate: timestamp('plan_end_date', { withTimezone: true }),
    /** whether the school has ever paid: the first-time discount applies only before */
    hasPaidSubscription: boolean('has_paid_subscription').notNull().default(false),
    /**
     * Ruling 28: what the running paid period is worth before GST (catalogue price less the
     * first-time discount), spread evenly from plan_value_from to plan_end_date; an upgrade is
     * credited from it. Null while nothing is paid for.
     */
    planValuePaise: bigint('plan_value_paise', { mode: 'number' }),
    planValueFrom: timestamp('plan_value_from', { withTimezone: true }),
    /** a lower plan bought during a higher one: it takes over at queued_start (= plan_end_date) */
    queuedPlan: text('queued_plan').references(() => plans.id),
    queuedStart: timestamp('queued_start', { withTimezone: true }),
    queuedEnd: timestamp('queued_end', { withTimezone: true }),
    queuedValuePaise: bigint('queued_value_paise', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('schools_created_at_idx').on(t.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A school's logo, printed on receipts and marksheets (docs/decisions/0031): one row per school,
 * kept in the database so backups and tenancy cover it like every other record.
 */
export const schoolLogos = pgTable('school_logos', {
  schoolId: uuid('school_id')
    .primaryKey()
    .references(() => schools.id),
  contentType: text('content_type', { enum: ['image/png', 'image/jpeg'] }).notNull(),
  image: bytea('image').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** null for the master administrator, who belongs to no school */
    schoolId: uuid('school_id').references(() => schools.id),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** every person of a school is `school_admin` here; what they may do is `school_role` */
    role: text('role', { enum: ['school_admin', 'master_admin'] }).notNull(),
    /** ruling 32: the registering administrator is the owner; invited staff carry their role; null for the master */
    schoolRole: text('school_role', { enum: STAFF_ROLES }),
    /** set when the owner or an administrator deactivates a staff member: no sign-in, sessions revoked */
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true }),
    /** set for an invited staff member; the password is set from the mailed link */
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    invitedBy: uuid('invited_by'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    hasSeenOnboarding: boolean('has_seen_onboarding').notNull().default(false),
    isFirstLogin: boolean('is_first_login').notNull().default(true),
    createdAt: createdAt(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_school_id_idx').on(t.schoolId),
  ],
);

/**
 * A signed token is only good while its row here is live: logout, password change and reset
 * revoke rows, and with them every token that names them.
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    schoolId: uuid('school_id').references(() => schools.id),
    kind: text('kind', { enum: ['session', 'remember'] }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** a session opened with or from a remember-me token names it, so signing out ends both */
    rememberId: uuid('remember_id'),
  },
  (t) => [index('auth_sessions_school_user_idx').on(t.schoolId, t.userId), index('auth_sessions_user_idx').on(t.userId)],
);

/**
 * Single-use tokens mailed to people: email confirmation, password reset and the confirmation of a
 * new sign-in address. Only a hash is kept; a newer token of the same purpose voids the older ones.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => users.id),
    schoolId: uuid('school_id').references(() => schools.id),
    purpose: text('purpose', { enum: ['confirm_email', 'reset_password', 'change_email', 'invite'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    /** change_email: the address that becomes the sign-in address once the link is opened */
    newEmail: text('new_email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_tokens_hash_unique').on(t.tokenHash), index('user_tokens_school_user_idx').on(t.schoolId, t.userId)],
);

/** Sign-in history, for the security view of the master portal and for rate limiting. */
export const loginEvents = pgTable(
  'login_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    schoolId: uuid('school_id').references(() => schools.id),
    userId: uuid('user_id').references(() => users.id),
    email: text('email').notNull(),
    success: boolean('success').notNull(),
    reason: text('reason'),
    ip: text('ip'),
    /** the browser as it named itself, cut to 300 characters (the Security tab's sign-in history) */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [index('login_events_created_idx').on(t.createdAt), index('login_events_school_created_idx').on(t.schoolId, t.createdAt), index('login_events_email_created_idx').on(t.email, t.createdAt)],
);

/**
 * Counters that slow down guessing: sign-in attempts per (account, IP), per account and per IP,
 * and recovery mails per address and per IP (docs/decisions/0016-sign-in-throttle.md). An attempt
 * is counted here, under a row lock, before the password hash is checked, so parallel requests
 * and several server processes share one count.
 */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    /** e.g. `signin:acct-ip:<email>|<ip>`; the kind prefix names the rule */
    key: text('key').primaryKey(),
    /** attempts in this window: failures plus those still being checked */
    count: integer('count').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  },
  (t) => [index('auth_throttle_window_idx').on(t.windowStart)],
);

/** Who did what, when and from where; before and after for every write of money or student moves. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    schoolId: uuid('school_id').references(() => schools.id),
    userId: uuid('user_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_school_created_idx').on(t.schoolId, t.createdAt), index('audit_log_created_idx').on(t.createdAt)],
);
