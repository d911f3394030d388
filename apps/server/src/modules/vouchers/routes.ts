import { vouchersApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as vouchers from './service.ts';

const ADMIN = { roles: ['ADMIN' as const] };

/** Vouchers: ADMIN lists, creates and deletes them; a signed-in user redeems one. */
export async function vouchersRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, { auth: ADMIN }, async (r, reply) => {
    const page = await vouchers.list(db, r.query);
    reply.header('x-total-count', String(page.total));
    return page;
  });
  route(app, api.create, { auth: ADMIN }, (r) => vouchers.create(db, requireAuth(r), r.body));
  route(app, api.remove, { auth: ADMIN }, async (r, reply) => {
    await vouchers.remove(db, requireAuth(r), r.params.id);
    return reply.status(204).send();
  });
  route(app, api.redeem, { auth: 'user' }, (r) => vouchers.redeem(db, requireAuth(r), r.body.key));
}
