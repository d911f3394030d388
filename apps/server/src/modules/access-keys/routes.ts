import { accessKeysApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as accessKeys from './service.ts';

/** Access keys of the signed-in user (accounts.md §7). */
export async function accessKeysRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, { auth: 'user' }, (request) => accessKeys.list(db, requireAuth(request).user.id));
  route(app, api.create, { auth: 'user' }, (request) => accessKeys.create(db, requireAuth(request), request.body));
  route(app, api.update, { auth: 'user' }, (request) => accessKeys.update(db, requireAuth(request), request.params.id, request.body));
  route(app, api.remove, { auth: 'user' }, async (request, reply) => {
    await accessKeys.remove(db, requireAuth(request).user.id, request.params.id);
    return reply.status(204).send();
  });
}
