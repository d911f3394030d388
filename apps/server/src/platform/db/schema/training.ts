import { bigint, doublePrecision, index, integer, jsonb, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { executors } from './compute.ts';
import { computeModels } from './models.ts';
import { users } from './users.ts';

export const trainingRunStatusEnum = pgEnum('training_run_status', ['QUEUED', 'RUNNING', 'FINISHED', 'FAILED', 'CANCELLED']);
export const trainedVersionStatusEnum = pgEnum('trained_version_status', ['CANDIDATE', 'PROMOTED', 'RETIRED']);

/**
 * A training run (issue 25): a fine-tune of a model's version on the trainable images chosen when it was started
 * (re-checked when it is dispatched). QUEUED → RUNNING (leased by one dispatcher, on one launcher) → FINISHED |
 * FAILED | CANCELLED. `attempt` is the claim's fencing token: every write of a running run is conditional on
 * `status = 'RUNNING' and attempt = <the claim's>`.
 */
export const trainingRuns = pgTable(
  'training_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    baseVersion: text('base_version').notNull(),
    /** The version the run produces (e.g. `20261201-ft1`), unique per model. */
    candidateVersion: text('candidate_version').notNull(),
    status: trainingRunStatusEnum('status').notNull().default('QUEUED'),
    /** Chosen trainable images: those trained on and those held out for the validation (split by image, seeded). */
    imageIds: jsonb('image_ids').$type<string[]>().notNull(),
    holdoutImageIds: jsonb('holdout_image_ids').$type<string[]>().notNull(),
    holdoutShare: doublePrecision('holdout_share').notNull(),
    steps: integer('steps').notNull(),
    seed: integer('seed').notNull(),
    /** The filters the images were chosen with (or `{imageIds}` for a chosen set). */
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull().default({}),
    progress: jsonb('progress').$type<{ step: number; steps: number; loss: number | null; elapsedS: number; etaS: number | null }>(),
    launcherId: uuid('launcher_id').references(() => executors.id, { onDelete: 'set null' }),
    /** While RUNNING: the dispatcher holding the run renews this on every line of the launcher; expired → QUEUED again. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    attempt: integer('attempt').notNull().default(0),
    error: jsonb('error').$type<{ code: string; message: string }>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('training_runs_candidate_unique').on(t.modelId, t.candidateVersion),
    index('training_runs_model_idx').on(t.modelId, t.createdAt),
    index('training_runs_queue_idx')
      .on(t.createdAt)
      .where(sql`status = 'QUEUED'`),
  ],
);

/**
 * A trained version of a model: its network in storage, its model card and its validation against the version it
 * was trained from. CANDIDATE until promoted (compute_models.version := it); `previousVersion` is the version that
 * was current before its promotion (rollback returns to it); RETIRED when replaced or rolled back.
 */
export const modelVersionArtefacts = pgTable(
  'model_version_artefacts',
  {
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    runId: uuid('run_id').references(() => trainingRuns.id, { onDelete: 'set null' }),
    status: trainedVersionStatusEnum('status').notNull().default('CANDIDATE'),
    networkKey: text('network_key').notNull(),
    networkSha256: text('network_sha256').notNull(),
    networkSize: bigint('network_size', { mode: 'number' }).notNull(),
    card: jsonb('card').$type<Record<string, unknown>>().notNull(),
    validation: jsonb('validation').$type<Record<string, unknown>>().notNull(),
    previousVersion: text('previous_version'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    promotedAt: timestamp('promoted_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.modelId, t.version] }), index('model_version_artefacts_sha_idx').on(t.networkSha256)],
);
