import { trainingApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as training from './service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };

/**
 * Training runs and trained versions (issue 25; back-office Models screen "Train new version"): ADMIN only. The
 * network download is for launchers: public, with the signed address the job or training spec gave (403 otherwise).
 */
export async function trainingRunsRoutes(app: RouteHost, deps: training.TrainingDeps): Promise<void> {
  const { db } = deps;
  route(app, api.trainableImages, ADMIN, (r) => training.listTrainable(db, r.params.id, r.query));
  route(app, api.start, ADMIN, async (r, reply) => reply.status(201).send(await training.start(deps, requireAuth(r), r.body, requestLanguage(r))));
  route(app, api.list, ADMIN, (r) => training.list(db, r.query));
  route(app, api.get, ADMIN, (r) => training.get(db, r.params.id));
  route(app, api.cancel, ADMIN, (r) => training.cancel(deps, requireAuth(r), r.params.id, requestLanguage(r)));
  route(app, api.versions, ADMIN, (r) => training.versions(db, r.params.id));
  route(app, api.promote, ADMIN, (r) => training.promote(db, requireAuth(r), r.params.id, r.params.version, requestLanguage(r)));
  route(app, api.rollback, ADMIN, (r) => training.rollback(db, requireAuth(r), r.params.id, requestLanguage(r)));
  route(app, api.network, { auth: 'public' }, async (r, reply) => {
    const file = await training.network(deps, r.params.sha256, r.query.token);
    reply.header('cache-control', 'private, max-age=86400, immutable').header('content-length', String(file.size)).type('application/octet-stream');
    return reply.send(deps.storage.stream(file.key));
  });
}
