import { projectsApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as projects from './service.ts';

/** Projects: list, create, delete, share by e-mail address (see service.ts). */
export async function projectsRoutes(app: RouteHost, deps: Omit<projects.ProjectsDeps, 'log'>): Promise<void> {
  const d: projects.ProjectsDeps = { ...deps, log: (m) => app.log.warn(m) };
  route(app, api.list, { auth: 'user' }, (request) => projects.list(d, requireAuth(request).user));
  route(app, api.create, { auth: 'user' }, (request) => projects.create(d.db, requireAuth(request).user.id, request.body));
  route(app, api.remove, { auth: 'user' }, async (request, reply) => {
    await projects.remove(d.db, requireAuth(request).user.id, request.params.id);
    return reply.status(204).send();
  });
  route(app, api.share, { auth: 'user' }, (request) => projects.share(d, requireAuth(request).user, request.params.id, request.body));
}
