import { notificationsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as notifications from './service.ts';

/** The notification panel (user-app.md §7): list, mark seen (one or all), delete (one or all). */
export async function notificationsRoutes(
  app: RouteHost,
  deps: {
    db: Db;
    /** Runs before the list is answered when project invitations wait for the user's address (app.ts: they become shares). */
    beforeList?: (user: { id: string; email: string }) => Promise<unknown>;
  },
): Promise<void> {
  const { db, beforeList } = deps;
  const userId = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;
  route(app, api.list, { auth: 'user' }, (request) => notifications.panel(db, requireAuth(request).user, beforeList));
  route(app, api.markAllSeen, { auth: 'user' }, (request) => notifications.markAllSeen(db, userId(request)));
  route(app, api.markSeen, { auth: 'user' }, (request) => notifications.markSeen(db, userId(request), request.params.id));
  route(app, api.removeAll, { auth: 'user' }, (request) => notifications.removeAll(db, userId(request)));
  route(app, api.remove, { auth: 'user' }, (request) => notifications.remove(db, userId(request), request.params.id));
}
