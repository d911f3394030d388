import { auditApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { listAudit } from './service.ts';

/** The audit log of privileged writes, for ADMIN only. */
export async function auditRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, { auth: { roles: ['ADMIN'] } }, (request) => listAudit(db, request.query));
}
