import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { executors, nodes } from './compute.ts';
import { users } from './users.ts';

/**
 * A registration token of a server (node): a launcher started on that machine with the token registers
 * itself as one of the node's launchers (POST /launchers/register). Only the SHA-256 of the token is kept;
 * the token is shown once when created. Deleting (revoking) it removes the launchers registered with it.
 */
export const launcherRegistrationTokens = pgTable(
  'launcher_registration_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, shown in the list to tell tokens apart. */
    tokenPrefix: text('token_prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('launcher_registration_tokens_node_idx').on(t.nodeId)],
);

/** A launcher that registered itself with a token: what it reported when it did. */
export const launcherRegistrations = pgTable(
  'launcher_registrations',
  {
    executorId: uuid('executor_id')
      .primaryKey()
      .references(() => executors.id, { onDelete: 'cascade' }),
    tokenId: uuid('token_id')
      .notNull()
      .references(() => launcherRegistrationTokens.id, { onDelete: 'cascade' }),
    host: text('host'),
    slots: integer('slots'),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('launcher_registrations_token_idx').on(t.tokenId)],
);
