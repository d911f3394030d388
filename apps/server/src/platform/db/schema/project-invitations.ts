import { index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects, shareRoleEnum } from './projects.ts';
import { users } from './users.ts';

/**
 * A project shared with an address that has no account yet: the invitation mail went out, and the share
 * (project_shares) is made when that address signs up and opens the app (modules/projects).
 */
export const projectInvitations = pgTable(
  'project_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** Normalised (lower-case, trimmed) address. */
    email: text('email').notNull(),
    role: shareRoleEnum('role').notNull().default('VIEWER'),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('project_invitations_project_email_uq').on(t.projectId, t.email), index('project_invitations_email_idx').on(t.email)],
);
