import { systemApi as api } from '@lamella/contracts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { notFound, unauthenticated } from '../../platform/http/errors.ts';
import * as users from '../users/service.ts';
import * as system from './service.ts';

/** Health, version, translations and the user count (the terms: modules/terms). */
export async function systemRoutes(app: RouteHost, deps: system.SystemDeps): Promise<void> {
  route(app, api.health, { auth: 'public' }, async (_request, reply) => {
    const health = await system.health(deps);
    return reply.status(health.status === 'ok' ? 200 : 503).send(health);
  });

  // Liveness: the process answers; readiness: it can do its work (each condition named). Orchestrators probe them.
  route(app, api.live, { auth: 'public' }, () => ({ status: 'ok' as const }));
  route(app, api.ready, { auth: 'public' }, async (_request, reply) => {
    const ready = await system.readiness(deps);
    return reply.status(ready.status === 'ready' ? 200 : 503).send(ready);
  });

  // Prometheus metrics, for the bearer of METRICS_TOKEN only (no user session: a scraper has none).
  route(app, api.metrics, { auth: 'public' }, async (request, reply) => {
    const metrics = deps.metrics;
    if (!metrics?.token) throw notFound('metrics');
    if (!system.metricsAuthorized(metrics.token, request.headers.authorization)) throw unauthenticated();
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });

  route(app, api.version, { auth: 'public' }, () => system.version(deps));

  route(app, api.translations, { auth: 'public' }, async (request, reply) => {
    const tree = await system.translationsOf(deps.db, request.params.lng);
    reply.header('cache-control', 'no-cache');
    return tree;
  });

  route(app, api.userCount, { auth: 'user' }, async () => ({ count: await users.countUsers(deps.db) }));
}
