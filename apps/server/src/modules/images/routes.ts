import { imagesApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { notFound } from '../../platform/http/errors.ts';
import * as images from './service.ts';
import * as library from './library-service.ts';
import { imageLibraryApi } from '@lamella/contracts';

const immutable = 'private, max-age=86400, immutable';

/**
 * Upload (multipart field `files`, streamed to disk within MAX_UPLOAD_MB / MAX_UPLOAD_REQUEST_MB and the
 * storage quota), the user's image list and storage usage, the image addresses of user-app.md §7, and the
 * ADMIN storage quotas per licence type.
 */
export async function imagesRoutes(app: RouteHost, deps: images.ImagesDeps): Promise<void> {
  const { db, storage } = deps;
  await images.sweepUploads(deps);

  route(app, api.upload, { auth: 'user' }, (request) => images.upload(deps, request, requireAuth(request)));
  route(app, api.list, { auth: 'user' }, (request) => images.listOwn(db, requireAuth(request).user.id));
  route(app, api.update, { auth: 'user' }, (request) => images.setPixelSize(db, requireAuth(request), request.params.id, request.body.pixelSizeUm));
  route(app, api.storage, { auth: 'user' }, (request) => images.storageUsage(deps, requireAuth(request).user));
  route(app, imageLibraryApi.list, { auth: 'user' }, (request) => library.listLibrary(db, requireAuth(request).user.id, request.query));
  route(app, imageLibraryApi.remove, { auth: 'user' }, (request) =>
    library.deleteImages(db, storage, requireAuth(request).user.id, request.body.imageIds),
  );

  route(app, api.original, { auth: 'user' }, async (request, reply) => {
    const image = await images.readableImage(db, requireAuth(request), request.params.id);
    reply.header('cache-control', immutable).type(images.contentTypeOf(image));
    reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(image.orginalFilename)}`);
    return reply.send(storage.stream(image.filename));
  });
  for (const kind of ['thumbnail', 'display'] as const) {
    route(app, api[kind], { auth: 'user' }, async (request, reply) => {
      const image = await images.readableImage(db, requireAuth(request), request.params.id);
      const key = images.renditionKey(image, kind);
      // a deleted image's files are gone (its row stays for the statistics): 404, not a failed stream
      if (!(await storage.exists(key))) throw notFound('image');
      reply.header('cache-control', immutable).type('image/webp');
      return reply.send(storage.stream(key));
    });
  }

  route(app, api.listQuotas, { auth: { roles: ['ADMIN'] } }, () => images.listQuotas(db));
  route(app, api.setQuotas, { auth: { roles: ['ADMIN'] } }, (request) => {
    const auth = requireAuth(request);
    return images.setQuotas(db, auth.impersonatorId ?? auth.user.id, request.body.quotas);
  });
}
