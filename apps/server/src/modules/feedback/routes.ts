import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { issueReports, userFeedback } from '../../platform/db/schema/index.ts';
import { validationFailed } from '../../platform/http/errors.ts';
import { findOwnJob } from '../jobs/present.ts';
import { notFound } from '../../platform/http/errors.ts';
import { lockJob, refreshJobAggregates } from '../admin/jobs-repo.ts';

const tags = ['feedback'];
const Uuid = Type.String({ format: 'uuid' });

/** Rating of a result (one per user and job, replaced on re-rating) and issue reports (user-app.md §7). */
export async function feedbackRoutes(app: App, ctx: Ctx): Promise<void> {
  app.post(
    '/feedback',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          { jobId: Uuid, rating: Type.Integer(), comment: Type.Optional(Type.Union([Type.String({ maxLength: 5000 }), Type.Null()])) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { jobId, rating } = request.body;
      if (rating < 1 || rating > 5) throw validationFailed([{ field: 'rating', key: 'errors.ratingRequired' }]);
      const job = await findOwnJob(ctx.db, auth.user.id, jobId);
      if (!job) throw notFound('job');
      const comment = request.body.comment?.trim() || null;
      // The job's user_rating (the admin jobs list sorts on it) follows in the same transaction.
      const row = await ctx.db.transaction(async (tx) => {
        if (!(await lockJob(tx, jobId))) throw notFound('job');
        await tx
          .insert(userFeedback)
          .values({ jobId, userId: auth.user.id, rating, comment })
          .onConflictDoUpdate({ target: [userFeedback.jobId, userFeedback.userId], set: { rating, comment, createdAt: new Date() } });
        await refreshJobAggregates(tx, jobId, ['userRating']);
        return (
          await tx
            .select()
            .from(userFeedback)
            .where(and(eq(userFeedback.jobId, jobId), eq(userFeedback.userId, auth.user.id)))
        )[0];
      });
      return { jobId, rating: row.rating, comment: row.comment };
    },
  );

  app.post(
    '/issue-reports',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          {
            jobId: Uuid,
            calculationDate: Type.Optional(Type.String({ maxLength: 100 })),
            modelName: Type.Optional(Type.String({ maxLength: 200 })),
            modelVersion: Type.Optional(Type.String({ maxLength: 100 })),
            details: Type.String({ maxLength: 10000 }),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const details = request.body.details.trim();
      if (!details) throw validationFailed([{ field: 'details', key: 'validation.required' }]);
      const job = await findOwnJob(ctx.db, auth.user.id, request.body.jobId);
      if (!job) throw notFound('job');
      const [row] = await ctx.db
        .insert(issueReports)
        .values({
          jobId: job.id,
          userId: auth.user.id,
          calculationDate: request.body.calculationDate,
          modelName: request.body.modelName,
          modelVersion: request.body.modelVersion,
          details,
        })
        .returning();
      return { id: row.id, status: 'OK' };
    },
  );
}
