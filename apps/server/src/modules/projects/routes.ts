import { projectsApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import * as projects from './service.ts';

/**
 * Projects: list, create, rename/describe/apply a template, delete, share by e-mail address, who has access,
 * revoke, and the images they hold (see service.ts). Every call is scoped: a project the caller has no access
 * to answers 404; a VIEWER's writes answer 403.
 */
export async function projectsRoutes(app: RouteHost, deps: Omit<projects.ProjectsDeps, 'log'> & { storage: Pick<Storage, 'stream'> }): Promise<void> {
  const d: projects.ProjectsDeps = { ...deps, log: (m) => app.log.warn(m) };
  const { db } = d;
  const uid = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;
  route(app, api.list, { auth: 'user' }, (request) => projects.list(d, requireAuth(request).user));
  route(app, api.create, { auth: 'user' }, (request) => projects.create(db, uid(request), request.body));
  route(app, api.templates, { auth: 'user' }, () => projects.templateOptions(db));
  route(app, api.get, { auth: 'user' }, (request) => projects.get(db, uid(request), request.params.id));
  route(app, api.update, { auth: 'user' }, (request) => projects.update(db, uid(request), request.params.id, request.body));
  route(app, api.remove, { auth: 'user' }, async (request, reply) => {
    await projects.remove(db, uid(request), request.params.id);
    return reply.status(204).send();
  });
  route(app, api.share, { auth: 'user' }, (request) => projects.share(d, requireAuth(request).user, request.params.id, request.body));
  route(app, api.access, { auth: 'user' }, (request) => projects.access(db, uid(request), request.params.id));
  route(app, api.revoke, { auth: 'user' }, async (request, reply) => {
    await projects.revoke(db, uid(request), request.params.id, request.params.userId);
    return reply.status(204).send();
  });
  route(app, api.myInvitations, { auth: 'user' }, (request) => projects.myInvitations(db, requireAuth(request).user));
  route(app, api.acceptInvitation, { auth: 'user' }, (request) => projects.answerInvitation(d, requireAuth(request).user, request.params.id, true));
  route(app, api.declineInvitation, { auth: 'user' }, (request) => projects.answerInvitation(d, requireAuth(request).user, request.params.id, false));
  route(app, api.cancelInvitation, { auth: 'user' }, async (request, reply) => {
    await projects.cancelInvitation(db, uid(request), request.params.id, request.query.email);
    return reply.status(204).send();
  });
  route(app, api.images, { auth: 'user' }, (request) => projects.images(db, uid(request), request.params.id));
  route(app, api.addImages, { auth: 'user' }, (request) => projects.addImages(db, uid(request), request.params.id, request.body));
  route(app, api.removeImage, { auth: 'user' }, async (request, reply) => {
    await projects.removeImage(db, uid(request), request.params.id, request.params.imageId);
    return reply.status(204).send();
  });
  route(app, api.thumbnail, { auth: 'user' }, async (request, reply) => {
    const key = await projects.thumbnailKey(db, uid(request), request.params.id, request.params.imageId);
    reply.header('cache-control', 'private, max-age=86400, immutable').type('image/webp');
    return reply.send(deps.storage.stream(key));
  });
  route(app, api.display, { auth: 'user' }, async (request, reply) => {
    const key = await projects.displayKey(db, uid(request), request.params.id, request.params.imageId);
    reply.header('cache-control', 'private, max-age=86400, immutable').type('image/webp');
    return reply.send(deps.storage.stream(key));
  });
  route(app, api.fields, { auth: 'user' }, (request) => projects.fields(db, uid(request), request.params.id, requestLanguage(request)));
  route(app, api.acceptField, { auth: 'user' }, (request) =>
    projects.acceptField(db, uid(request), request.params.id, request.params.imageId, request.params.modelId, request.body, requestLanguage(request)),
  );
  route(app, api.releaseField, { auth: 'user' }, (request) =>
    projects.releaseField(db, uid(request), request.params.id, request.params.imageId, request.params.modelId, requestLanguage(request)),
  );
}
