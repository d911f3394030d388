import { computeNodesApi as api, launcherRegistrationApi as registration } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as nodes from './service.ts';
import * as tokens from './registration-service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const actor = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Servers and launchers (back-office §2 Servers screen, §7 Servers and launchers). */
export async function computeNodesRoutes(app: RouteHost, deps: nodes.NodesDeps): Promise<void> {
  route(app, api.list, ADMIN, () => nodes.list(deps));
  route(app, api.create, ADMIN, (request) => nodes.createNode(deps, actor(request), request.body));
  route(app, api.remove, ADMIN, (request) => nodes.removeNode(deps, actor(request), request.params.id));
  route(app, api.start, ADMIN, (request) => nodes.startNode(deps, actor(request), request.params.id, requestLanguage(request)));
  route(app, api.stop, ADMIN, (request) => nodes.stopNode(deps, actor(request), request.params.id, requestLanguage(request)));
  route(app, api.createLauncher, ADMIN, (request) => nodes.createLauncher(deps, actor(request), request.body, requestLanguage(request)));
  route(app, api.removeLauncher, ADMIN, (request) => nodes.removeLauncher(deps, actor(request), request.params.id));
  route(app, api.testLauncher, ADMIN, (request) => nodes.testLauncher(deps, request.params.id, requestLanguage(request)));
  route(app, api.versions, ADMIN, () => nodes.reportedVersions(deps));
  route(app, api.versionChoices, ADMIN, () => nodes.versionChoices(deps));
  route(app, api.updateAll, ADMIN, (request) => nodes.updateAll(deps, actor(request), request.body.version, requestLanguage(request)));
  route(app, registration.listTokens, ADMIN, (request) => tokens.listTokens(deps, request.params.id));
  route(app, registration.createToken, ADMIN, (request) =>
    tokens.createToken(deps, actor(request), request.params.id, request.body, requestLanguage(request)),
  );
  route(app, registration.revokeToken, ADMIN, (request) => tokens.revokeToken(deps, actor(request), request.params.id, requestLanguage(request)));
  // The launcher's credential is the registration token itself.
  route(app, registration.register, { auth: 'public' }, (request) => tokens.registerLauncher(deps, request.headers.authorization, request.body));
}
