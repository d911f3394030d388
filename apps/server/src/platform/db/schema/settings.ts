import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { licenses } from './users.ts';

/**
 * Demo license reminders already mailed (modules/settings/reminders.ts): one row per license and kind
 * (`EXPIRY`, `EXTENSION_EXPIRY`). The row is inserted before the mail is sent (INSERT … ON CONFLICT DO NOTHING
 * RETURNING), so with several replicas exactly one of them sends it; a failed send deletes the row to retry.
 */
export const licenseReminders = pgTable(
  'license_reminders',
  {
    licenseId: uuid('license_id')
      .notNull()
      .references(() => licenses.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    remindedAt: timestamp('reminded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.licenseId, t.kind] })],
);
