import type { IssueReportBody, IssueReportCreated, JobRating, RateJobBody } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { notFound, validationFailed } from '../../platform/http/errors.ts';
import * as repo from './repo.ts';

/**
 * What feedback needs of the jobs domain, passed in at registration (app.ts gives jobs/service.ts's
 * functions): the jobs module imports this one to present ratings, so this one must not import it back.
 */
export interface FeedbackJobs {
  findOwnJob(db: Db, ownerId: string, jobId: string): Promise<{ id: string } | undefined>;
  /** Runs `write` under the job's row lock and recomputes the named aggregates; undefined when the job is gone. */
  writeUnderJobLock<T>(db: Db, jobId: string, aggregates: Array<'userRating'>, write: (tx: Db) => Promise<T>): Promise<T | undefined>;
}

/** Rates a job of the caller (1 to 5, one per user and job, replaced on re-rating). */
export async function rate(db: Db, jobsDomain: FeedbackJobs, userId: string, body: RateJobBody): Promise<JobRating> {
  const { jobId, rating } = body;
  if (rating < 1 || rating > 5) throw validationFailed([{ field: 'rating', key: 'errors.ratingRequired' }]);
  if (!(await jobsDomain.findOwnJob(db, userId, jobId))) throw notFound('job');
  const comment = body.comment?.trim() || null;
  // The job's user_rating (the admin jobs list sorts on it) follows in the same transaction.
  const row = await jobsDomain.writeUnderJobLock(db, jobId, ['userRating'], (tx) => repo.upsertRating(tx, { jobId, userId, rating, comment }));
  if (!row) throw notFound('job');
  return { jobId, rating: row.rating, comment: row.comment };
}

export async function reportIssue(db: Db, jobsDomain: FeedbackJobs, userId: string, body: IssueReportBody): Promise<IssueReportCreated> {
  const details = body.details.trim();
  if (!details) throw validationFailed([{ field: 'details', key: 'validation.required' }]);
  const job = await jobsDomain.findOwnJob(db, userId, body.jobId);
  if (!job) throw notFound('job');
  const row = await repo.insertIssueReport(db, {
    jobId: job.id,
    userId,
    calculationDate: body.calculationDate,
    modelName: body.modelName,
    modelVersion: body.modelVersion,
    details,
  });
  return { id: row.id, status: 'OK' };
}
