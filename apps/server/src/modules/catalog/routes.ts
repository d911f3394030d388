import { catalogApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as catalog from './service.ts';

/** Available models and favourites (header tabs and the "Manage favorite models" menu). */
export async function catalogRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.availableModels, { auth: 'user' }, (request) => catalog.availableModels(db, requireAuth(request).user));
  route(app, api.favorites, { auth: 'user' }, (request) => catalog.favorites(db, requireAuth(request).user));
  route(app, api.setFavorite, { auth: 'user' }, (request) =>
    catalog.setFavorite(db, requireAuth(request).user, request.body.id, request.body.favorite),
  );
}
