import { templatesApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as templates from './service.ts';

const ADMIN = { roles: ['ADMIN' as const] };

/** Project settings templates (accounts.md §2, §7): ADMIN only. */
export async function templatesRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, { auth: ADMIN }, () => templates.list(db));
  route(app, api.create, { auth: ADMIN }, (r) => templates.create(db, requireAuth(r), r.body));
  route(app, api.get, { auth: ADMIN }, (r) => templates.get(db, r.params.id));
  route(app, api.update, { auth: ADMIN }, (r) => templates.update(db, requireAuth(r), r.params.id, r.body));
  route(app, api.remove, { auth: ADMIN }, async (r, reply) => {
    await templates.remove(db, requireAuth(r), r.params.id);
    return reply.status(204).send();
  });
}
