import { adminJobsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { downloadHeaders, readerCsvOptions, streamedBody } from '../../platform/http/spreadsheet.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as jobs from './service.ts';
import type { ChangeCache } from '../../platform/db/change-cache.ts';

const JOB_READ = { permission: 'JOB.READ' };
const JOB_WRITE = { permission: 'JOB.WRITE' };
const today = () => new Date().toISOString().slice(0, 10);

/** Admin jobs pages (back-office §2 Jobs list and Job detail, §7 Jobs): ADMIN, or POWER_USER holding JOB.READ / JOB.WRITE. */
export async function adminJobsRoutes(
  app: RouteHost,
  deps: { db: Db; databaseKind: jobs.DatabaseKind; listCache: ChangeCache<string> | null; jobEvents?: jobs.RerunDeps['jobEvents'] },
): Promise<void> {
  const { db, databaseKind } = deps;

  route(app, api.list, { auth: JOB_READ }, async (request, reply) => {
    const body = await jobs.listAnswer(db, deps.listCache, request.query, (page) => String(reply.serialize(page)));
    return reply.type('application/json; charset=utf-8').send(body);
  });
  route(app, api.count, { auth: JOB_READ }, (request) => jobs.count(db, deps.listCache, request.query));
  // Both reports: headers in the caller's language, their CSV style, or XLSX (platform/http/spreadsheet.ts).
  route(app, api.report, { auth: JOB_READ }, (request, reply) => {
    const lng = requestLanguage(request);
    const format = request.query.format ?? 'csv';
    const table = jobs.jobsReport(db, databaseKind, request.query, lng);
    const body = streamedBody(table, format, readerCsvOptions(request, lng), jobs.reportSheet('jobs', lng));
    return reply.headers(downloadHeaders(format, `jobs-${today()}`)).send(body);
  });
  route(app, api.masksReport, { auth: JOB_READ }, (request, reply) => {
    const lng = requestLanguage(request);
    const format = request.query.format ?? 'csv';
    const table = jobs.masksReport(db, databaseKind, request.query, lng);
    const body = streamedBody(table, format, readerCsvOptions(request, lng), jobs.reportSheet('masks', lng));
    return reply.headers(downloadHeaders(format, `masks-${today()}`)).send(body);
  });
  route(app, api.nextToRate, { auth: JOB_READ }, (request) => jobs.nextToRate(db, request.query.after));
  route(app, api.get, { auth: JOB_READ }, (request) => jobs.detail(db, request.params.id));
  // "Re-run for the customer" (issue 26): JOB.WRITE, no licence unit, audited.
  route(app, api.rerun, { auth: JOB_WRITE }, (request) =>
    jobs.rerun(
      { db, jobEvents: deps.jobEvents ?? { created: () => undefined } },
      requireAuth(request).user.id,
      request.params.id,
      requestLanguage(request),
    ),
  );
  route(app, api.addFeedback, { auth: JOB_WRITE }, (request) =>
    jobs.addFeedback(db, requireAuth(request), request.params.jobId, request.body, requestLanguage(request)),
  );
  route(app, api.removeFeedback, { auth: JOB_WRITE }, (request) =>
    jobs.removeFeedback(db, requireAuth(request), request.params.id, requestLanguage(request)),
  );
}
