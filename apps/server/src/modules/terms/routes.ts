import { termsApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { requestLanguage } from '../../platform/http/language.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as terms from './service.ts';

const ADMIN = { auth: { roles: ['ADMIN' as const] } };
const USER = { auth: 'user' as const };
const me = (request: Parameters<typeof requireAuth>[0]) => requireAuth(request).user.id;

/** Terms: the public text, the back-office editor (ADMIN only, back-office.md routes) and the user's acceptance. */
export async function termsRoutes(app: RouteHost, deps: { db: Db }): Promise<void> {
  const { db } = deps;
  route(app, api.current, { auth: 'public' }, (request) => terms.current(db, request.params.lng));
  route(app, api.adminGet, ADMIN, (request) => terms.adminGet(db, request.params.language));
  route(app, api.save, ADMIN, (request) => terms.save(db, me(request), request.params.language, request.body, requestLanguage(request)));
  route(app, api.pending, USER, (request) => terms.pending(db, me(request), requestLanguage(request)));
  route(app, api.accept, USER, (request) => terms.accept(db, me(request), request.body.version, requestLanguage(request)));
}
