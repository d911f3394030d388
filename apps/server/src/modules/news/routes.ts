import { newsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as news from './service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const USER = { auth: 'user' as const };
const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Model news (back-office.md §2 News screen, §9): staff write it; users read general news and their models' news. */
export async function newsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, ADMIN, () => news.list(db));
  route(app, api.create, ADMIN, (request) => news.create(db, actor(request), request.body, requestLanguage(request)));
  route(app, api.get, ADMIN, (request) => news.get(db, request.params.id));
  route(app, api.update, ADMIN, (request) => news.update(db, actor(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.updateByPost, ADMIN, (request) => news.update(db, actor(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.remove, ADMIN, (request) => news.remove(db, actor(request), request.params.id, requestLanguage(request)));
  route(app, api.userList, USER, (request) => news.userList(db, requireAuth(request).user, request.query.modelId, requestLanguage(request)));
}
