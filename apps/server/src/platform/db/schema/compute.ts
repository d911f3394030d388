import { boolean, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const nodeTypeEnum = pgEnum('node_type', ['ON_PREMISE', 'CLOUD']);
export const nodeStatusEnum = pgEnum('node_status', ['ONLINE', 'OFFLINE', 'UNKNOWN']);

/** A compute server. The built-in `local` provider starts launcher processes on this machine. */
export const nodes = pgTable('nodes', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  ip: text('ip').notNull(),
  description: text('description').notNull(),
  nodeType: nodeTypeEnum('node_type').notNull().default('ON_PREMISE'),
  status: nodeStatusEnum('status').notNull().default('UNKNOWN'),
  provider: text('provider'),
  instanceId: text('instance_id'),
  /** A start or stop is under way (cloud nodes). */
  transition: text('transition'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A launcher (executor) on a node: HTTP service that runs models. */
export const executors = pgTable(
  'executors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    nodeId: uuid('node_id')
      .notNull()
      .references(() => nodes.id, { onDelete: 'cascade' }),
    port: integer('port').notNull().default(8000),
    gpuAffinity: integer('gpu_affinity').notNull().default(0),
    version: text('version').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    isUpdating: boolean('is_updating').notNull().default(false),
    envVariables: jsonb('env_variables').$type<Record<string, string>>().notNull().default({}),
    /** Models and versions the launcher reported at its last contact. */
    reportedModels: jsonb('reported_models').$type<Array<{ name: string; versions: string[] }>>().notNull().default([]),
    /** The job the launcher is running now, if any (one job per launcher at a time). */
    busyJobId: uuid('busy_job_id'),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('executors_node_idx').on(t.nodeId)],
);
