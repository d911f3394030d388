import { reportsApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as reports from './service.ts';

/** Job and specimen reports as PDF or XLSX downloads (see service.ts). */
export async function reportsRoutes(app: RouteHost, deps: reports.ReportsDeps): Promise<void> {
  const send = (reply: Parameters<Parameters<typeof route>[3]>[1], file: reports.ReportFile) =>
    reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('cache-control', 'private, no-store')
      .send(file.body);
  route(app, api.job, { auth: 'user' }, async (request, reply) =>
    send(reply, await reports.jobReport(deps, requireAuth(request), request.params.id, request.query.format)),
  );
  route(app, api.project, { auth: 'user' }, async (request, reply) =>
    send(reply, await reports.projectReport(deps, requireAuth(request), request.params.id, request.query.format)),
  );
}
