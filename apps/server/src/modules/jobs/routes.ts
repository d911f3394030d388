import { and, asc, count, desc, eq, notInArray } from 'drizzle-orm';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { notFound } from '../../platform/http/errors.ts';
import { jobs, results } from '../../platform/db/schema/index.ts';
import { findOwnJob, presentJobs } from './present.ts';
import { createJobs, deleteJobs, rerunJobs, setArchived } from './service.ts';
import { jobsCsv } from './export.ts';

const tags = ['jobs'];
const Uuid = Type.String({ format: 'uuid' });
const CropBox = Type.Object(
  { x: Type.Number({ minimum: 0 }), y: Type.Number({ minimum: 0 }), width: Type.Number({ minimum: 1 }), height: Type.Number({ minimum: 1 }) },
  { additionalProperties: false },
);
const ListQuery = Type.Object({
  archived: Type.Optional(Type.Boolean({ default: false })),
  modelId: Type.Optional(Uuid),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  sortBy: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('finishedAt'), Type.Literal('status')], { default: 'createdAt' })),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
});
const IdsBody = Type.Object({ jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 500 }) }, { additionalProperties: false });

/** The user's jobs (user-app.md §7): list with paging headers, one job, its error, runs, re-runs, bulk actions. */
export async function jobsRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/jobs', { config: { auth: 'user' }, schema: { tags, querystring: ListQuery } }, async (request, reply) => {
    const auth = requireAuth(request);
    const q = request.query;
    const page = q.page ?? 1;
    const pageSize = q.pageSize ?? 10;
    const where = and(
      eq(jobs.ownerId, auth.user.id),
      eq(jobs.deleted, false),
      eq(jobs.archived, q.archived ?? false),
      q.modelId ? eq(jobs.modelId, q.modelId) : undefined,
      notInArray(jobs.source, ['SANDBOX', 'IDENTIFICATION']),
    );
    const column = { createdAt: jobs.createdAt, finishedAt: jobs.finishedAt, status: jobs.status }[q.sortBy ?? 'createdAt'];
    const dir = q.sortOrder === 'asc' ? asc : desc;
    const [rows, [total]] = await Promise.all([
      ctx.db
        .select()
        .from(jobs)
        .where(where)
        .orderBy(dir(column), dir(jobs.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      ctx.db.select({ n: count() }).from(jobs).where(where),
    ]);
    reply.header('x-total-count', String(total.n)).header('x-page-size', String(pageSize));
    reply.header('access-control-expose-headers', 'x-total-count, x-page-size');
    return presentJobs(ctx.db, rows);
  });

  app.post(
    '/jobs',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          {
            imageIds: Type.Array(Uuid, { minItems: 1, maxItems: 100 }),
            modelIds: Type.Array(Uuid, { minItems: 1, maxItems: 20 }),
            projectId: Type.Optional(Type.Union([Uuid, Type.Null()])),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await createJobs(ctx, auth, { ...request.body, source: auth.via === 'key' ? 'API' : 'WEB' });
      return presentJobs(ctx.db, rows);
    },
  );

  app.post(
    '/jobs/rerun',
    {
      config: { auth: 'user' },
      schema: {
        tags,
        body: Type.Object(
          {
            jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 100 }),
            withCrop: Type.Optional(Type.Union([CropBox, Type.Boolean(), Type.Null()])),
            withUserMasks: Type.Optional(Type.Boolean()),
            modelId: Type.Optional(Uuid),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => presentJobs(ctx.db, await rerunJobs(ctx, requireAuth(request), request.body)),
  );

  app.post('/jobs/archive', { config: { auth: 'user' }, schema: { tags, body: IdsBody } }, async (request) => ({
    archived: await setArchived(ctx, requireAuth(request), request.body.jobsIds, true),
  }));
  app.post('/jobs/unarchive', { config: { auth: 'user' }, schema: { tags, body: IdsBody } }, async (request) => ({
    archived: await setArchived(ctx, requireAuth(request), request.body.jobsIds, false),
  }));
  app.post('/jobs/delete', { config: { auth: 'user' }, schema: { tags, body: IdsBody } }, async (request) => ({
    deleted: await deleteJobs(ctx, requireAuth(request), request.body.jobsIds),
  }));

  /** CSV of the measurements of the given jobs, with the user's decimal separator. */
  app.get(
    '/jobs/export',
    { config: { auth: 'user' }, schema: { tags, querystring: Type.Object({ jobsIds: Type.Array(Uuid, { minItems: 1, maxItems: 1000 }) }) } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const csv = await jobsCsv(ctx, auth.user, request.query.jobsIds);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="lamella-results.csv"`);
      return csv;
    },
  );

  app.get('/jobs/:id', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request) => {
    const auth = requireAuth(request);
    const job =
      auth.user.role === 'ADMIN'
        ? (await ctx.db.select().from(jobs).where(eq(jobs.id, request.params.id)))[0]
        : await findOwnJob(ctx.db, auth.user.id, request.params.id);
    if (!job) throw notFound('job');
    return (await presentJobs(ctx.db, [job]))[0];
  });

  app.get(
    '/jobs/:id/error',
    {
      config: { auth: 'user' },
      schema: { tags, params: IdParams, response: { 200: Type.Object({ error: Type.Union([Type.String(), Type.Null()]) }) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const job =
        auth.user.role === 'ADMIN'
          ? (await ctx.db.select().from(jobs).where(eq(jobs.id, request.params.id)))[0]
          : await findOwnJob(ctx.db, auth.user.id, request.params.id);
      if (!job) throw notFound('job');
      return { error: job.status === 'FAILED' ? job.error : null };
    },
  );

  const readableResult = async (request: Parameters<typeof requireAuth>[0], resultId: string) => {
    const auth = requireAuth(request);
    const [row] = await ctx.db
      .select({ result: results })
      .from(results)
      .innerJoin(jobs, eq(jobs.resultId, results.id))
      .where(
        and(
          eq(results.id, resultId),
          auth.user.role === 'ADMIN' ? undefined : eq(jobs.ownerId, auth.user.id),
          auth.user.role === 'ADMIN' ? undefined : eq(jobs.deleted, false),
        ),
      )
      .limit(1);
    if (!row) throw notFound('result');
    return row.result;
  };

  app.get('/jobs/results/:resultId', { config: { auth: 'user' }, schema: { tags, params: Type.Object({ resultId: Uuid }) } }, async (request) => {
    const r = await readableResult(request, request.params.resultId);
    return { id: r.id, results: r.items, feedback: r.feedback, measurements: r.measurements, files: Object.keys(r.files) };
  });

  app.get(
    '/jobs/results/:resultId/:filename',
    { config: { auth: 'user' }, schema: { tags, params: Type.Object({ resultId: Uuid, filename: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const r = await readableResult(request, request.params.resultId);
      const key = r.files[request.params.filename];
      if (!key) throw notFound('file');
      const type = request.params.filename.endsWith('.png')
        ? 'image/png'
        : request.params.filename.endsWith('.json')
          ? 'application/json'
          : request.params.filename.endsWith('.csv')
            ? 'text/csv'
            : 'application/octet-stream';
      reply.header('cache-control', 'private, max-age=86400, immutable').type(type);
      return reply.send(ctx.storage.stream(key));
    },
  );
}
