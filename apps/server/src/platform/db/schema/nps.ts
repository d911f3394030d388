import { pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** The user closed the NPS prompt without answering: it stays away until the next period (insights/nps). */
export const npsDismissals = pgTable('nps_dismissals', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dismissedAt: timestamp('dismissed_at', { withTimezone: true }).notNull().defaultNow(),
});
