import { groupsApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as groups from './service.ts';

// back-office.md §6: the Groups screen needs no permission a POWER_USER could hold, so it is ADMIN only.
const ADMIN = { auth: { roles: ['ADMIN' as const] } };
// The group-admin area: any signed-in user; the service answers 404 unless the caller administers a group.
const USER = { auth: 'user' as const };
const me = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** User groups (back-office Groups screen) and the group-admin area (user-app.md /group-admin). */
export async function groupsRoutes(app: RouteHost, deps: groups.GroupsDeps): Promise<void> {
  const { db } = deps;
  route(app, api.list, ADMIN, () => groups.list(db));
  route(app, api.userOptions, ADMIN, () => groups.userOptions(db));
  route(app, api.create, ADMIN, (request) => groups.create(db, me(request), request.body, requestLanguage(request)));
  route(app, api.update, ADMIN, (request) => groups.update(db, me(request), request.params.id, request.body, requestLanguage(request)));
  route(app, api.setUsers, ADMIN, (request) =>
    groups.setUsers(db, me(request), request.params.groupId, request.body.usersIds, requestLanguage(request)),
  );
  route(app, api.remove, ADMIN, (request) => groups.remove(db, me(request), request.params.id, requestLanguage(request)));
  route(app, api.adminOverview, USER, (request) => groups.overview(db, me(request)));
  route(app, api.invite, USER, (request) => groups.invite(deps, me(request), request.body, requestLanguage(request)));
  route(app, api.myInvitations, USER, (request) => groups.myInvitations(db, me(request)));
  route(app, api.acceptInvitation, USER, (request) => groups.answerInvitation(db, me(request), request.params.id, true, requestLanguage(request)));
  route(app, api.declineInvitation, USER, (request) => groups.answerInvitation(db, me(request), request.params.id, false, requestLanguage(request)));
  route(app, api.removeMember, USER, (request) => groups.removeMember(db, me(request), request.params.userId, requestLanguage(request)));
}
