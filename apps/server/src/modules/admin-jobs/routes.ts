import { Readable } from 'node:stream';
import { adminJobsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as jobs from './service.ts';

const JOB_READ = { permission: 'JOB.READ' };
const JOB_WRITE = { permission: 'JOB.WRITE' };
const today = () => new Date().toISOString().slice(0, 10);

/** Admin jobs pages (back-office §2 Jobs list and Job detail, §7 Jobs): ADMIN, or POWER_USER holding JOB.READ / JOB.WRITE. */
export async function adminJobsRoutes(app: RouteHost, deps: { db: Db; databaseKind: jobs.DatabaseKind }): Promise<void> {
  const { db, databaseKind } = deps;
  const csv = (filename: string, chunks: AsyncGenerator<string>) => ({
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${filename}-${today()}.csv"` },
    stream: Readable.from(chunks),
  });

  route(app, api.list, { auth: JOB_READ }, (request) => jobs.list(db, request.query));
  route(app, api.report, { auth: JOB_READ }, (request, reply) => {
    const file = csv('jobs', jobs.jobsReport(db, databaseKind, request.query));
    return reply.headers(file.headers).send(file.stream);
  });
  route(app, api.masksReport, { auth: JOB_READ }, (request, reply) => {
    const file = csv('masks', jobs.masksReport(db, databaseKind, request.query));
    return reply.headers(file.headers).send(file.stream);
  });
  route(app, api.get, { auth: JOB_READ }, (request) => jobs.detail(db, request.params.id));
  route(app, api.addFeedback, { auth: JOB_WRITE }, (request) =>
    jobs.addFeedback(db, requireAuth(request), request.params.jobId, request.body, requestLanguage(request)),
  );
  route(app, api.removeFeedback, { auth: JOB_WRITE }, (request) =>
    jobs.removeFeedback(db, requireAuth(request), request.params.id, requestLanguage(request)),
  );
}
