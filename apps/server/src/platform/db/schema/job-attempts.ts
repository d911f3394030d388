import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { executors } from './compute.ts';
import { jobs } from './jobs.ts';

/**
 * Every run of a job on a launcher (admin job detail, "every attempt"): written by the dispatcher when it claims
 * the job and closed when the run ends. outcome: RUNNING while on the launcher, then FINISHED, FAILED (the model
 * refused the input, or no attempt left) or ABANDONED (launcher busy, unreachable, not responding, lease lost or
 * expired: the job went back to the queue); reason says why, error text included.
 */
export const jobAttempts = pgTable(
  'job_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    executorId: uuid('executor_id').references(() => executors.id, { onDelete: 'set null' }),
    /** The launcher as it was named when the attempt ran ("server · port"): kept when the launcher is deleted. */
    launcher: text('launcher').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    outcome: text('outcome').$type<'RUNNING' | 'FINISHED' | 'FAILED' | 'ABANDONED'>().notNull().default('RUNNING'),
    reason: text('reason'),
  },
  (t) => [index('job_attempts_job_idx').on(t.jobId, t.startedAt)],
);
