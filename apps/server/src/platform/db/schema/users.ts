import { boolean, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['ADMIN', 'POWER_USER', 'EDITOR', 'USER', 'BLOCKED']);
export const licenseTypeEnum = pgEnum('license_type', ['DEMO', 'IMAGES_LIMITED', 'TIME_LIMITED', 'UNLIMITED', 'FLOATING', 'ENTERPRISE']);
export const licenseCreatedByEnum = pgEnum('license_created_by', ['SYSTEM', 'ADMIN', 'VOUCHER', 'PURCHASE']);
export const accessKeyScopeEnum = pgEnum('access_key_scope', ['READ_ONLY', 'READ_WRITE']);
export const tokenPurposeEnum = pgEnum('token_purpose', ['VERIFY_EMAIL', 'RESET_PASSWORD', 'REMOVE_ACCOUNT']);

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** User groups (back-office Groups screen): a group has one admin and members; enterprise/floating licenses hang on it. */
export const groups = pgTable(
  'groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    adminId: uuid('admin_id'),
    /** When set, members' training consent is decided by the group and cannot be changed by them. */
    trainingConsentPolicy: boolean('training_consent_policy'),
    ...timestamps,
  },
  // Every authenticated request asks whether the caller administers a group (session.ts): by index, not a scan.
  (t) => [index('groups_admin_idx').on(t.adminId)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased, trimmed. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    role: roleEnum('role').notNull().default('USER'),
    emailVerified: boolean('email_verified').notNull().default(false),
    language: text('language').notNull().default('en'),
    subscribe: boolean('subscribe').notNull().default(false),
    trainingConsent: boolean('training_consent').notNull().default(false),
    /** The 2 extra trial months for training consent are granted once. */
    trainingBonusGrantedAt: timestamp('training_bonus_granted_at', { withTimezone: true }),
    csvDecimalSeparator: text('csv_decimal_separator').notNull().default('comma'),
    /** company, address, city, country, postalCode, taxNumber, phone */
    address: jsonb('address').$type<Record<string, string>>().notNull().default({}),
    logoKey: text('logo_key'),
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabled: boolean('totp_enabled').notNull().default(false),
    /** Last accepted TOTP time step, so a code is never accepted twice. */
    totpLastStep: integer('totp_last_step'),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'set null' }),
    removeDataPermanently: boolean('remove_data_permanently').notNull().default(false),
    /** Tags and UI preferences (e.g. dismissed insights). */
    preferences: jsonb('preferences').$type<Record<string, unknown>>().notNull().default({}),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    lastVerificationMailAt: timestamp('last_verification_mail_at', { withTimezone: true }),
    /** Deletion by ADMIN waits a grace period: the account is BLOCKED at once and purged at this instant unless restored. */
    deletionDueAt: timestamp('deletion_due_at', { withTimezone: true }),
    /** The role to give back when a scheduled deletion is cancelled. */
    roleBeforeDeletion: roleEnum('role_before_deletion'),
    /** The ADMIN who asked for the deletion (named in the audit entry of the purge). */
    deletionRequestedById: uuid('deletion_requested_by_id'),
    /** The BLOCKED role was set by an ADMIN (or by a scheduled deletion): only an ADMIN lifts it (issue 26 item 6). */
    blockedByAdmin: boolean('blocked_by_admin').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_role_idx').on(t.role),
    index('users_group_idx').on(t.groupId),
    index('users_created_idx').on(t.createdAt),
    index('users_deletion_due_idx').on(t.deletionDueAt),
  ],
);

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

/** Power-user privileges: resource.action pairs such as USER.READ, JOB.READ. */
export const privileges = pgTable(
  'privileges',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    action: text('action').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.resource, t.action] })],
);

/** Opaque session tokens, stored as SHA-256 hashes. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Set while the second factor is still owed: only /users/2fa/validate completes such a session. */
    twoFactorPending: boolean('two_factor_pending').notNull().default(false),
    /** The admin acting as this user (impersonation). */
    impersonatorId: uuid('impersonator_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sessions_token_unique').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/** Single-use e-mailed tokens (verification, password reset, account removal), stored as hashes. */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: tokenPurposeEnum('purpose').notNull(),
    /** For e-mail verification: the address the token confirms. */
    email: text('email'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_tokens_hash_unique').on(t.tokenHash), index('user_tokens_user_idx').on(t.userId, t.purpose)],
);

export const accessKeys = pgTable(
  'access_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** READ_ONLY: GET requests only; READ_WRITE: every call its owner may make (issue 27 item 5). */
    scope: accessKeyScopeEnum('scope').notNull().default('READ_WRITE'),
    /** Requests a minute this key may make (429 with Retry-After beyond). */
    ratePerMinute: integer('rate_per_minute').notNull().default(600),
    /** Requests made with this key since it was created. */
    requestCount: integer('request_count').notNull().default(0),
  },
  (t) => [uniqueIndex('access_keys_hash_unique').on(t.keyHash), index('access_keys_user_idx').on(t.userId)],
);

export const licenses = pgTable(
  'licenses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    type: licenseTypeEnum('type').notNull(),
    createdBy: licenseCreatedByEnum('created_by').notNull().default('SYSTEM'),
    /** Image limit for DEMO / IMAGES_LIMITED; null = no image limit. */
    images: integer('images'),
    used: integer('used').notNull().default(0),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    /** End of validity for DEMO / TIME_LIMITED; null = no end. */
    finishAt: timestamp('finish_at', { withTimezone: true }),
    active: boolean('active').notNull().default(true),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('licenses_user_idx').on(t.userId, t.active), index('licenses_group_idx').on(t.groupId)],
);

export const vouchers = pgTable(
  'vouchers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    executions: integer('executions').notNull(),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    takenById: uuid('taken_by_id').references(() => users.id, { onDelete: 'set null' }),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('vouchers_key_unique').on(t.key), index('vouchers_created_idx').on(t.createdAt)],
);

/** NPS answers shown in the admin user list and dashboard. */
export const npsResponses = pgTable(
  'nps_responses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    score: integer('score').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('nps_created_idx').on(t.createdAt)],
);
