import { adminUsersApi as api } from '@lamella/contracts';
import { translate } from '@lamella/i18n';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import type { SessionOptions } from '../../platform/auth/session.ts';
import { requireAuth, type Guard } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { downloadHeaders, readerCsvOptions, tableToCsv, tableToXlsx } from '../../platform/http/spreadsheet.ts';
import * as users from './service.ts';

const ADMIN: Guard = { roles: ['ADMIN'] };
const USER_READ: Guard = { permission: 'USER.READ' };
const USER_WRITE: Guard = { permission: 'USER.WRITE' };

/**
 * Users, roles, access control, licenses and impersonation (back-office "Users", "Access control", Settings →
 * Demo license). Guards per ARCHITECTURE.md "Privileges": reading needs USER.READ, activating and assigning a
 * license USER.WRITE; role changes need USER.WRITE and stay ADMIN only where staff roles are involved (service).
 */
export async function adminUsersRoutes(app: RouteHost, deps: { db: Db; storage: Storage; sessionOptions: SessionOptions }): Promise<void> {
  const { db, storage, sessionOptions } = deps;
  // Separation of duties (issue 26 item 6): every refused attempt on users, roles, licences or privileges by a
  // signed-in caller is audited too (the guard's refusals and the service's).
  app.addHook('onError', async (request, reply, error) => {
    const status = (error as { statusCode?: number }).statusCode ?? reply.statusCode;
    if (status !== 403 || !request.auth) return;
    await users.auditRefusal(db, request.auth, {
      method: request.method,
      route: request.routeOptions.url ?? request.url,
      code: (error as { code?: string }).code ?? 'FORBIDDEN',
      targetId: (request.params as { id?: string } | undefined)?.id ?? (request.body as { userId?: string } | undefined)?.userId ?? null,
    });
  });
  route(app, api.list, { auth: USER_READ }, async (request, reply) => {
    const { items, total, pageSize } = await users.list(db, request.query);
    return reply.headers({ 'x-total-count': String(total), 'x-page-size': String(pageSize) }).send(items);
  });
  route(app, api.csv, { auth: USER_READ }, async (request, reply) => {
    const lng = requestLanguage(request);
    const table = await users.usersReport(db, request.query, lng);
    const format = request.query.format ?? 'csv';
    const body =
      format === 'xlsx' ? await tableToXlsx(table, translate(lng, 'adminReports.sheets.users')) : tableToCsv(table, readerCsvOptions(request, lng));
    return reply.headers(downloadHeaders(format, 'users')).send(body);
  });
  route(app, api.stats, { auth: USER_READ }, (request) => users.stats(db, request.params.id));
  route(app, api.licenses, { auth: USER_READ }, (request) => users.licenseHistory(db, request.params.id));
  route(app, api.get, { auth: USER_READ }, (request) => users.profile(db, request.params.id));
  route(app, api.setRole, { auth: USER_WRITE }, (request) => users.setRole(db, requireAuth(request), request.params.id, request.body.role));
  route(app, api.remove, { auth: ADMIN }, async (request, reply) => {
    await users.remove(db, storage, requireAuth(request), request.params.id);
    return reply.status(204).send();
  });
  route(app, api.restore, { auth: ADMIN }, (request) => users.restore(db, requireAuth(request), request.params.id));
  route(app, api.activate, { auth: USER_WRITE }, (request) => users.activate(db, requireAuth(request), request.params.id));
  route(app, api.setPreferences, { auth: ADMIN }, (request) =>
    users.setPreferences(db, requireAuth(request), request.params.id, request.body.removeDataPermanently),
  );
  route(app, api.impersonate, { auth: ADMIN }, (request, reply) =>
    users.impersonate(db, sessionOptions, request, reply, requireAuth(request), request.params.id),
  );
  route(app, api.endImpersonation, { auth: 'session' }, (request, reply) => users.endImpersonation(db, request, reply, requireAuth(request)));
  route(app, api.listAcl, { auth: ADMIN }, () => users.listAcl(db));
  route(app, api.setAcl, { auth: ADMIN }, (request) => users.setAcl(db, requireAuth(request), request.params.id, request.body.privileges));
  route(app, api.assignLicense, { auth: USER_WRITE }, (request) => users.assignLicense(db, requireAuth(request), request.body));
  route(app, api.getDemoLicense, { auth: ADMIN }, () => users.demoLicense(db));
  route(app, api.setDemoLicense, { auth: ADMIN }, (request) => users.setDemoLicense(db, requireAuth(request), request.body));
}
