import { sandboxApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as sandbox from './service.ts';
import { requestLanguage } from '../../platform/http/language.ts';

/** The sandbox (user-app.md §4): try models on one image; the admin sandbox adds params and versions. */
export async function sandboxRoutes(app: RouteHost, deps: sandbox.SandboxDeps): Promise<void> {
  route(app, api.run, { auth: 'user' }, (request) => sandbox.run(deps, requireAuth(request), request.body));
  route(app, api.list, { auth: 'user' }, (request) => sandbox.listRecent(deps, requireAuth(request).user.id, requestLanguage(request)));
}
