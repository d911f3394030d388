import { index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Published terms (back-office Terms). Every save is a new row; `version` is one number shared by both languages
 * (saving either language bumps it), so the current text of a language is its newest row and the current version
 * is the highest of all. Owned by modules/terms.
 */
export const termsVersions = pgTable(
  'terms_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    language: text('language').notNull(),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('terms_versions_version_unique').on(t.version), index('terms_versions_language_idx').on(t.language, t.version)],
);

/** Every terms version a user accepted (at sign-up, then in the acceptance dialog); a user's version is the highest. */
export const termsAcceptances = pgTable(
  'terms_acceptances',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.version] })],
);
