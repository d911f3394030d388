import { computeModelsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as models from './service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const USER = { auth: 'user' as const };
const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Models registry (back-office §2 Models page, §7 Models) and a model's manual and example for its users. */
export async function computeModelsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, ADMIN, () => models.list(db));
  route(app, api.stats, ADMIN, () => models.statsList(db));
  // The model filter of the staff pages (jobs, images): every staff role that may open one of them (issue 26).
  route(app, api.short, { auth: { roles: ['ADMIN', 'POWER_USER', 'EDITOR'] } }, () => models.shortList(db));
  route(app, api.create, ADMIN, (request) => models.create(db, actor(request), request.body));
  route(app, api.update, ADMIN, (request) => models.update(db, actor(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.remove, ADMIN, (request) => models.remove(db, actor(request), request.params.id));
  route(app, api.archive, ADMIN, (request) => models.setArchived(db, actor(request), request.params.id, true));
  route(app, api.unarchive, ADMIN, (request) => models.setArchived(db, actor(request), request.params.id, false));
  route(app, api.versions, ADMIN, (request) => models.versions(db, request.params.id));
  route(app, api.access, ADMIN, (request) => models.accessList(db, request.params.id));
  route(app, api.grant, ADMIN, (request) => models.grant(db, actor(request), request.params.id, request.body.userId, requestLanguage(request)));
  route(app, api.revoke, ADMIN, (request) => models.revoke(db, actor(request), request.params.id, request.params.userId, requestLanguage(request)));
  route(app, api.example, ADMIN, (request) => models.example(db, request.params.id));
  route(app, api.saveExample, ADMIN, (request) => models.saveExample(db, actor(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.manual, ADMIN, (request) => models.manual(db, request.params.id, request.params.position, request.params.language));
  route(app, api.saveManual, ADMIN, (request) => models.saveManual(db, actor(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.userManual, USER, (request) =>
    models.userManual(db, requireAuth(request).user, request.params.modelId, request.params.position, request.params.language),
  );
  route(app, api.userExample, USER, (request) => models.userExample(db, requireAuth(request).user, request.params.modelId));
}
