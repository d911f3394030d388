import { adminImagesApi as api, publicImageFile } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as publicImages from './service.ts';

/** ADMIN only (back-office.md §6; insights and news, where the images are used, are ADMIN's too). */
const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const actor = (request: Parameters<typeof requireAuth>[0]) => {
  const auth = requireAuth(request);
  return auth.impersonatorId ?? auth.user.id;
};

/** The public images library under /api (back-office.md §7 Images): list, upload (multipart `files`), delete. */
export async function publicImagesRoutes(app: RouteHost, deps: publicImages.PublicImagesDeps): Promise<void> {
  route(app, api.publicList, ADMIN, () => publicImages.list(deps.db));
  route(app, api.publicUpload, ADMIN, (request) => publicImages.upload(deps, request, actor(request)));
  route(app, api.publicRemove, ADMIN, (request) => publicImages.remove(deps, actor(request), request.params.filename, requestLanguage(request)));
}

/**
 * `GET /image/public/{filename}`, outside /api, to everyone (the rich text of insights and news points at it).
 * Registered at the root before the web app's fallback. Names are never reused (a random part), so browsers may
 * keep a file for a day; nosniff makes the declared PNG/JPEG type binding.
 */
export async function publicImageFileRoutes(app: RouteHost, deps: publicImages.PublicImagesDeps): Promise<void> {
  route(app, publicImageFile, { auth: 'public' }, async (request, reply) => {
    const file = await publicImages.readable(deps.db, request.params.filename);
    return reply
      .type(file.contentType)
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(deps.storage.stream(file.storageKey));
  });
}
