import { systemApi as api } from '@lamella/contracts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as users from '../users/service.ts';
import * as system from './service.ts';

/** Health, version, translations and the user count (the terms: modules/terms). */
export async function systemRoutes(app: RouteHost, deps: system.SystemDeps): Promise<void> {
  route(app, api.health, { auth: 'public' }, async (_request, reply) => {
    const health = await system.health(deps);
    return reply.status(health.status === 'ok' ? 200 : 503).send(health);
  });

  route(app, api.version, { auth: 'public' }, () => system.version(deps));

  route(app, api.translations, { auth: 'public' }, async (request, reply) => {
    const tree = await system.translationsOf(deps.db, request.params.lng);
    reply.header('cache-control', 'no-cache');
    return tree;
  });

  route(app, api.userCount, { auth: 'user' }, async () => ({ count: await users.countUsers(deps.db) }));
}
