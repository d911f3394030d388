import { customizationsApi as api, trainingApi } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as groups from './service.ts';

const ADMIN = { roles: ['ADMIN' as const] };

/** Customization groups (back-office §2, §4, §5, §7, §8): ADMIN only, except the user-side list of a model's groups. */
export async function customizationsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.listGroups, { auth: ADMIN }, () => groups.listGroups(db));
  route(app, api.createGroup, { auth: ADMIN }, (r) => groups.createGroup(db, requireAuth(r), r.body, requestLanguage(r)));
  route(app, api.updateGroup, { auth: ADMIN }, (r) => groups.updateGroup(db, requireAuth(r), r.params.groupId, r.body, requestLanguage(r)));
  route(app, api.deleteGroup, { auth: ADMIN }, (r) => groups.deleteGroup(db, requireAuth(r), r.params.groupId, requestLanguage(r)));
  route(app, api.cloneGroup, { auth: ADMIN }, (r) => groups.cloneGroup(db, requireAuth(r), r.params.groupId, requestLanguage(r)));
  route(app, api.addMember, { auth: ADMIN }, (r) => groups.addMember(db, requireAuth(r), r.params.groupId, r.body.userId, requestLanguage(r)));
  route(app, api.removeMember, { auth: ADMIN }, (r) =>
    groups.removeMember(db, requireAuth(r), r.params.groupId, r.params.userId, requestLanguage(r)),
  );
  route(app, api.setParents, { auth: ADMIN }, (r) => groups.setParents(db, requireAuth(r), r.params.groupId, r.body, requestLanguage(r)));
  route(app, api.removeParent, { auth: ADMIN }, (r) =>
    groups.removeParent(db, requireAuth(r), r.params.groupId, r.params.parentId, requestLanguage(r)),
  );
  route(app, api.inheritanceChain, { auth: ADMIN }, (r) => groups.chain(db, r.params.groupId));
  route(app, api.settings, { auth: ADMIN }, (r) => groups.settings(db, r.params.groupId));
  route(app, api.saveSettings, { auth: ADMIN }, (r) =>
    groups.saveSettings(db, requireAuth(r), r.params.groupId, r.body.settings, requestLanguage(r)),
  );
  route(app, api.resolvedSettings, { auth: ADMIN }, (r) => groups.resolvedSettings(db, r.params.groupId));
  route(app, api.modelDefaults, { auth: ADMIN }, (r) => groups.modelDefaults(db, r.params.modelId));
  route(app, api.validate, { auth: ADMIN }, async (r, reply) => reply.send(await groups.validate(db, r.body)));
  // issue 25: the version the group's members' jobs run with
  route(app, trainingApi.setGroupVersion, { auth: ADMIN }, (r) =>
    groups.setGroupVersion(db, requireAuth(r), r.params.id, r.body.version, requestLanguage(r)),
  );
  route(app, api.forModel, { auth: 'user' }, (r) => groups.forModel(db, requireAuth(r), r.params.modelId));
}
