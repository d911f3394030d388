import { adminDashboardApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { Guard } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as dashboard from './service.ts';

/** The dashboard has no privilege of its own, so it is ADMIN only (back-office.md §6: power users see only pages with a permission). */
const ADMIN: Guard = { roles: ['ADMIN'] };

export async function adminDashboardRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.currentJobs, { auth: ADMIN }, () => dashboard.currentJobs(db));
  route(app, api.averageTimes, { auth: ADMIN }, () => dashboard.averageTimes(db));
  route(app, api.fails, { auth: ADMIN }, () => dashboard.fails(db));
  route(app, api.success, { auth: ADMIN }, () => dashboard.success(db));
  route(app, api.activeUsers, { auth: ADMIN }, () => dashboard.activeUsers(db));
  route(app, api.averageNps, { auth: ADMIN }, () => dashboard.averageNps(db));
  route(app, api.licenses, { auth: ADMIN }, () => dashboard.licenses(db));
  route(app, api.customers, { auth: ADMIN }, () => dashboard.customers(db));
  let compaction: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    compaction = dashboard.startJobCountsCompaction(db, (msg) => app.log.error(msg));
  });
  app.addHook('onClose', async () => {
    await compaction?.stop();
  });
}
