import { masksApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as masks from './service.ts';

/** User masks (user-app.md §4 mask editor, §7 POST /masks and GET /masks/{id}/image). */
export async function masksRoutes(app: RouteHost, deps: masks.MasksDeps): Promise<void> {
  route(app, api.save, { auth: 'user' }, (request) => masks.save(deps, request, requireAuth(request)));
  route(app, api.image, { auth: 'user' }, async (request, reply) => {
    const mask = await masks.readableMask(deps.db, requireAuth(request), request.params.id);
    reply.header('cache-control', 'private, max-age=86400, immutable').type('image/png');
    return reply.send(deps.storage.stream(mask.storageKey));
  });
}
