import { calibrationsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as calibrations from './service.ts';

/** The signed-in user's named calibrations (µm per pixel), picked on upload and saved from the set-scale tool. */
export async function calibrationsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, { auth: 'user' }, (request) => calibrations.list(db, requireAuth(request).user.id));
  route(app, api.create, { auth: 'user' }, (request) => calibrations.create(db, requireAuth(request).user.id, request.body));
  route(app, api.update, { auth: 'user' }, (request) => calibrations.update(db, requireAuth(request).user.id, request.params.id, request.body));
  route(app, api.remove, { auth: 'user' }, async (request, reply) => {
    await calibrations.remove(db, requireAuth(request).user.id, request.params.id);
    return reply.status(204).send();
  });
}
