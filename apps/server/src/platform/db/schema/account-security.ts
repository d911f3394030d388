import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { groups, users } from './users.ts';

/**
 * One-time recovery codes of the second factor (issue 28 item 7): the SHA-256 of each, made and shown once when an
 * authenticator is enrolled; a code is spent by deleting its row (one conditional DELETE, so it works once).
 */
export const totpRecoveryCodes = pgTable(
  'totp_recovery_codes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
);

/**
 * A group admin's invitation of an existing account into their group (issue 28 item 5): the user becomes a member
 * (`users.group_id`) only when they accept it; declining or the group's deletion removes it.
 */
export const groupInvitations = pgTable(
  'group_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    groupId: uuid('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('group_invitations_group_user_unique').on(t.groupId, t.userId), index('group_invitations_user_idx').on(t.userId)],
);
