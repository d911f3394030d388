import { recipesApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as recipes from './service.ts';

/** Recipes (issue 22): the user's own pixel classifiers, shareable with a project. */
export async function recipesRoutes(app: RouteHost, deps: recipes.RecipesDeps): Promise<void> {
  route(app, api.list, { auth: 'user' }, (r) => recipes.list(deps.db, requireAuth(r)));
  route(app, api.train, { auth: 'user' }, (r) => recipes.train(deps, requireAuth(r), r.body));
  route(app, api.create, { auth: 'user' }, (r) => recipes.create(deps, requireAuth(r), r.body));
  route(app, api.get, { auth: 'user' }, (r) => recipes.get(deps.db, requireAuth(r), r.params.id));
  route(app, api.update, { auth: 'user' }, (r) => recipes.update(deps, requireAuth(r), r.params.id, r.body));
  route(app, api.remove, { auth: 'user' }, async (r, reply) => {
    await recipes.remove(deps.db, requireAuth(r), r.params.id);
    return reply.status(204).send();
  });
  route(app, api.preview, { auth: 'user' }, (r) => recipes.preview(deps, requireAuth(r), r.params.id, r.body));
}
