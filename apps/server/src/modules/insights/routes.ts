import { insightsApi as api, npsApi } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as insights from './service.ts';
import * as nps from './nps-service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const USER = { auth: 'user' as const };
const me = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Insights (back-office.md §2 Insights screen, §9): staff write them, users read them on their dashboard. */
export async function insightsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.adminList, ADMIN, () => insights.adminList(db));
  route(app, api.create, ADMIN, (request) => insights.create(db, me(request), request.body, requestLanguage(request)));
  route(app, api.update, ADMIN, (request) => insights.update(db, me(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.remove, ADMIN, (request) => insights.remove(db, me(request), request.params.id, requestLanguage(request)));
  route(app, api.resetVisibility, ADMIN, (request) => insights.resetVisibility(db, me(request), requestLanguage(request)));
  route(app, api.list, USER, (request) => insights.userList(db, me(request), requestLanguage(request), request.query['without-details'] === true));
  route(app, api.get, USER, (request) => insights.userGet(db, request.params.id, requestLanguage(request)));
  route(app, api.hide, USER, (request) => insights.hide(db, me(request), request.params.id));
  // The NPS prompt on the user's dashboard (issue 26): asked, answered or closed by the signed-in user.
  const caller = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user;
  route(app, npsApi.prompt, USER, (request) => nps.prompt(db, caller(request)));
  route(app, npsApi.answer, USER, (request) => nps.answer(db, caller(request), request.body, requestLanguage(request)));
  route(app, npsApi.dismiss, USER, (request) => nps.dismiss(db, caller(request)));
}
