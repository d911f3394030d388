import { translationsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as translations from './service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const me = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Translation overrides (back-office Settings → Translations; ADMIN only, back-office.md routes) and PUT /languages. */
export async function translationsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.list, ADMIN, (request) => translations.list(db, request.query));
  route(app, api.set, ADMIN, (request) => translations.set(db, me(request), request.body, requestLanguage(request)));
  route(app, api.remove, ADMIN, (request) =>
    translations.remove(db, me(request), request.params.language, request.params.key, requestLanguage(request)),
  );
  route(app, api.reload, ADMIN, (request) => translations.reload(db, me(request), requestLanguage(request)));
}
