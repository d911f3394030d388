import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { executors } from './compute.ts';
import { customizationGroups } from './customizations.ts';
import { images } from './images.ts';
import { computeModels } from './models.ts';
import { projects } from './projects.ts';
import { users } from './users.ts';

/**
 * NEW (queued) → PENDING (running on a launcher) → FINISHED | FAILED; CACHED when answered from an identical
 * earlier result. The spec names NEW, CACHED, FAILED, PENDING; FINISHED is our name for a job shown with results.
 */
export const jobStatusEnum = pgEnum('job_status', ['NEW', 'PENDING', 'FINISHED', 'FAILED', 'CACHED']);
export const jobSourceEnum = pgEnum('job_source', ['WEB', 'API', 'SANDBOX', 'IDENTIFICATION', 'TEST']);

export const results = pgTable(
  'results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Result items of user-app.md §3 (bar-chart, data-table, histogram, image, message). */
    items: jsonb('items').$type<unknown[]>().notNull(),
    measurements: jsonb('measurements').$type<Record<string, unknown>>().notNull().default({}),
    /** Feedback flags: {name, value, score}. */
    feedback: jsonb('feedback').$type<unknown[]>().notNull().default([]),
    /** Storage keys of result files by filename. */
    files: jsonb('files').$type<Record<string, string>>().notNull().default({}),
    /** sha256(image) + model version + settings + crop + masks: identical input answers from this result. */
    cacheKey: text('cache_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('results_cache_idx').on(t.cacheKey)],
);

/** The rows a user's own job list shows (not deleted, not sandbox or parameter identification runs). */
const ownListed = sql`not deleted and source not in ('SANDBOX', 'IDENTIFICATION')`;

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    modelId: uuid('model_id')
      .notNull()
      .references(() => computeModels.id, { onDelete: 'cascade' }),
    modelVersion: text('model_version').notNull(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'set null' }),
    status: jobStatusEnum('status').notNull().default('NEW'),
    source: jobSourceEnum('source').notNull().default('WEB'),
    /** Settings the job runs with (resolved customization + runtime configuration for IDENTIFICATION). */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    customizationId: uuid('customization_id').references(() => customizationGroups.id, { onDelete: 'set null' }),
    crop: jsonb('crop').$type<{ x: number; y: number; width: number; height: number } | null>(),
    maskId: uuid('mask_id'),
    /** The recipe and the version of it the job segments with (issue 22), or null. */
    recipeId: uuid('recipe_id'),
    recipeVersion: integer('recipe_version'),
    parentJobId: uuid('parent_job_id'),
    resultId: uuid('result_id').references(() => results.id, { onDelete: 'set null' }),
    executorId: uuid('executor_id').references(() => executors.id, { onDelete: 'set null' }),
    attempts: integer('attempts').notNull().default(0),
    /** While PENDING: the dispatcher holding the job renews this; an expired lease puts the job back to NEW. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Last sign of life from the launcher running the job (start, progress or heartbeat line). */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** 0..1 as reported by the launcher. */
    progress: doublePrecision('progress'),
    error: text('error'),
    archived: boolean('archived').notNull().default(false),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Milliseconds, for stats without recomputing. */
    durationMs: bigint('duration_ms', { mode: 'number' }),
    waitMs: bigint('wait_ms', { mode: 'number' }),
    /**
     * Aggregates of the job's children, kept by every write of them (same transaction, job row locked) so
     * that the admin jobs list sorts on an index: the highest user rating (null: none), the mean of the
     * admin feedback scores exactly as avg((scale_number + scale_length + resin + results) / 4.0) computes it
     * (null: none), and the number of submitted masks.
     */
    userRating: smallint('user_rating'),
    adminRatingMean: numeric('admin_rating_mean'),
    submittedMasks: integer('submitted_masks').notNull().default(0),
  },
  (t) => [
    index('jobs_owner_model_idx').on(t.ownerId, t.modelId, t.createdAt),
    index('jobs_created_idx').on(t.createdAt),
    index('jobs_status_idx').on(t.status, t.createdAt),
    index('jobs_model_idx').on(t.modelId, t.createdAt),
    index('jobs_source_idx').on(t.source, t.createdAt),
    index('jobs_image_idx').on(t.imageId),
    index('jobs_project_idx').on(t.projectId),
    index('jobs_queue_idx')
      .on(t.createdAt)
      .where(sql`status = 'NEW'`),
    // Admin jobs list: each sort key with the (created_at, id) tie-breaker. Nullable keys are indexed NULLS
    // FIRST so one index serves both "asc nulls first" and (scanned backward) "desc nulls last".
    index('jobs_owner_created_idx').on(t.ownerId, t.createdAt),
    index('jobs_started_idx').on(t.startedAt.asc().nullsFirst(), t.createdAt, t.id),
    index('jobs_finished_idx').on(t.finishedAt.asc().nullsFirst(), t.createdAt, t.id),
    index('jobs_duration_idx').on(t.durationMs.asc().nullsFirst(), t.createdAt, t.id),
    index('jobs_wait_idx').on(t.waitMs.asc().nullsFirst(), t.createdAt, t.id),
    // Newest first without a sort, and index-only (deleted included) under EXISTS filters that skip many jobs.
    index('jobs_created_id_idx').on(t.createdAt, t.id, t.deleted),
    index('jobs_model_version_idx').on(t.modelVersion, t.createdAt),
    index('jobs_user_rating_idx').on(t.userRating.asc().nullsFirst(), t.createdAt, t.id),
    index('jobs_admin_rating_idx').on(t.adminRatingMean.asc().nullsFirst(), t.createdAt, t.id),
    index('jobs_submitted_masks_idx').on(t.submittedMasks, t.createdAt, t.id),
    // Dashboard average times: mean duration and wait of recently finished jobs, index only.
    index('jobs_finished_times_idx').on(t.finishedAt, t.durationMs, t.waitMs),
    // The user's own job list (GET /jobs, issue 30): each sort key per owner and archived flag, over the rows the
    // list shows only, with the id as tie-breaker; the model filter has its own.
    index('jobs_owner_list_created_idx').on(t.ownerId, t.archived, t.createdAt, t.id).where(ownListed),
    index('jobs_owner_list_finished_idx').on(t.ownerId, t.archived, t.finishedAt, t.id).where(ownListed),
    index('jobs_owner_list_status_idx').on(t.ownerId, t.archived, t.status, t.id).where(ownListed),
    index('jobs_owner_list_model_idx').on(t.ownerId, t.modelId, t.archived, t.createdAt, t.id).where(ownListed),
  ],
);

/**
 * How many jobs each user's list shows, per (owner, model, archived): the x-total-count of GET /jobs without a
 * count over the user's history (issue 30). Kept by statement triggers on jobs (migration 0023: insert, delete,
 * update of owner, model, archived, deleted or source); no foreign key, so a user's deletion cascading to the jobs
 * never inserts a row for a gone user (the rows of a deleted user are removed with their last job).
 */
export const jobOwnerTotals = pgTable(
  'job_owner_totals',
  {
    ownerId: uuid('owner_id').notNull(),
    modelId: uuid('model_id').notNull(),
    archived: boolean('archived').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.modelId, t.archived] })],
);

/**
 * Exact job counts per (status, UTC creation day) for the back-office dashboard, so that its totals do not count
 * ~1,000,000 index entries. Triggers on jobs (insert, update of status or created_at, delete, truncate; migration
 * 0015) never touch this table: each change appends signed rows to job_status_count_changes instead, so job
 * writers never wait on (or deadlock over) a shared counter row. The dashboard folds the changes into this table
 * (admin-dashboard/repo.ts compactJobStatusCounts, one statement) and reads the sum of both tables.
 */
export const jobStatusCounts = pgTable(
  'job_status_counts',
  {
    status: jobStatusEnum('status').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.status, t.day] })],
);

/** Signed changes to job_status_counts not yet folded in (append-only, written by the jobs triggers). */
export const jobStatusCountChanges = pgTable('job_status_count_changes', {
  status: jobStatusEnum('status').notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  n: integer('n').notNull(),
});

export const masks = pgTable(
  'masks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'cascade' }),
    imageId: uuid('image_id').references(() => images.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    label: text('label').notNull(),
    filename: text('filename').notNull(),
    storageKey: text('storage_key').notNull(),
    isSubmitted: boolean('is_submitted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('masks_job_idx').on(t.jobId), index('masks_owner_idx').on(t.ownerId)],
);

export const userFeedback = pgTable(
  'user_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: integer('rating').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_feedback_job_unique').on(t.jobId, t.userId)],
);

export const adminFeedback = pgTable(
  'admin_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    scaleNumber: integer('scale_number').notNull(),
    scaleLength: integer('scale_length').notNull(),
    resin: integer('resin').notNull(),
    results: integer('results').notNull(),
    comment: text('comment'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('admin_feedback_job_idx').on(t.jobId)],
);

export const issueReports = pgTable('issue_reports', {
  id: uuid('id').primaryKey().defaultRandom(),
  jobId: uuid('job_id').references(() => jobs.id, { onDelete: 'set null' }),
  userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
  calculationDate: text('calculation_date'),
  modelName: text('model_name'),
  modelVersion: text('model_version'),
  details: text('details').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
