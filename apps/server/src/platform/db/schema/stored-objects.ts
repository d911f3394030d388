import { bigint, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Every file in storage with its size (issue 28 item 3): written by the metering storage (platform/storage/metered.ts)
 * on each put and delete, reconciled with the store by the sweep. `ownerId`: the user the key belongs to (images/,
 * masks/, logos/); null for result files, which count for the owners of the jobs that reference them.
 * No foreign key: a row outlives its user until the sweep has removed the file.
 */
export const storedObjects = pgTable(
  'stored_objects',
  {
    key: text('key').primaryKey(),
    ownerId: uuid('owner_id'),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stored_objects_owner_idx').on(t.ownerId)],
);
