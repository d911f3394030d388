import { pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';
import { insights } from './models.ts';
import { users } from './users.ts';

/** Insights a user has hidden from their dashboard; staff's "Reset visibility" empties the table. */
export const insightDismissals = pgTable(
  'insight_dismissals',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    insightId: uuid('insight_id')
      .notNull()
      .references(() => insights.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.insightId] })],
);
