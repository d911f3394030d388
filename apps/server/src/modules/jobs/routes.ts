import { jobsApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { jobsCsv, jobsXlsx } from './export.ts';
import * as jobs from './service.ts';
import type { ChangeCache } from '../../platform/db/change-cache.ts';

export interface JobsRoutesDeps extends jobs.JobsDeps {
  storage: Storage;
  /** The answered lists (jobs.jobListCache); null: every poll reads the database. */
  listCache: ChangeCache<jobs.JobsPageAnswer> | null;
}

/** The user's jobs (user-app.md §7): list with paging headers, one job, its error, runs, re-runs, bulk actions. */
export async function jobsRoutes(app: RouteHost, deps: JobsRoutesDeps): Promise<void> {
  const { db, storage } = deps;
  route(app, api.list, { auth: 'user' }, async (request, reply) => {
    const page = await jobs.listJobsAnswer(db, deps.listCache, requireAuth(request).user.id, request.query, requestLanguage(request), (list) =>
      String(reply.serialize(list)),
    );
    reply.header('x-total-count', String(page.total)).header('x-page-size', String(page.pageSize));
    reply.header('access-control-expose-headers', 'x-total-count, x-page-size');
    return reply.type('application/json; charset=utf-8').send(page.body);
  });
  route(app, api.create, { auth: 'user' }, (request) => jobs.startJobs(deps, requireAuth(request), request.body, requestLanguage(request)));
  route(app, api.rerun, { auth: 'user' }, (request) => jobs.rerun(deps, requireAuth(request), request.body, requestLanguage(request)));
  route(app, api.archive, { auth: 'user' }, async (request) => ({
    archived: await jobs.setArchived(db, requireAuth(request), request.body.jobsIds, true),
  }));
  route(app, api.unarchive, { auth: 'user' }, async (request) => ({
    archived: await jobs.setArchived(db, requireAuth(request), request.body.jobsIds, false),
  }));
  route(app, api.remove, { auth: 'user' }, async (request) => ({ deleted: await jobs.deleteJobs(db, requireAuth(request), request.body.jobsIds) }));
  route(app, api.export, { auth: 'user' }, async (request, reply) => {
    const { user } = requireAuth(request);
    const lng = requestLanguage(request);
    if (request.query.format === 'xlsx') {
      const xlsx = await jobsXlsx(db, user, request.query.jobsIds, lng);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="lamella-results.xlsx"')
        .send(xlsx);
    }
    const csv = await jobsCsv(db, user, request.query.jobsIds, lng);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="lamella-results.csv"')
      .send(csv);
  });
  route(app, api.get, { auth: 'user' }, (request) => jobs.getJob(db, requireAuth(request), request.params.id, requestLanguage(request)));
  route(app, api.error, { auth: 'user' }, (request) => jobs.getJobError(db, requireAuth(request), request.params.id));
  route(app, api.result, { auth: 'user' }, (request) => jobs.getResult(db, requireAuth(request), request.params.resultId, requestLanguage(request)));
  route(app, api.resultFile, { auth: 'user' }, async (request, reply) => {
    const file = await jobs.resultFile(db, storage, requireAuth(request), request.params.resultId, request.params.filename);
    return reply.header('cache-control', 'private, max-age=86400, immutable').type(file.type).send(file.stream);
  });
}
