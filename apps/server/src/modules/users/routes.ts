import { usersApi as api } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { clearSessionCookie, endAllSessions, endSession } from '../../platform/auth/session.ts';
import { AppError } from '../../platform/http/errors.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import { assertSameOrigin } from '../../platform/http/same-origin.ts';
import * as users from './service.ts';

const tooLarge = () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'errors.fileTooLarge', { max: '5 MB' });

/** The signed-in user's own account (accounts.md §7 "Profile and account"). */
export async function usersRoutes(app: RouteHost, deps: users.UsersDeps): Promise<void> {
  const db: Db = deps.db;
  route(app, api.me, { auth: 'pending' }, (request) => users.me(db, requireAuth(request)));
  route(app, api.account, { auth: 'session' }, (request) => users.presentAccount(db, requireAuth(request).user));
  route(app, api.updateProfile, { auth: 'user' }, (request) => users.updateProfile(db, requireAuth(request).user, request.body));
  route(app, api.updateAuth, { auth: 'user' }, (request) => users.updateAuth(deps, requireAuth(request), request.body));
  route(app, api.setConsent, { auth: 'user' }, (request) => users.setTrainingConsent(db, requireAuth(request).user, request.body.trainingConsent));

  route(app, api.uploadLogo, { auth: 'user' }, async (request) => {
    const auth = requireAuth(request);
    const file = request.isMultipart() ? await request.file({ limits: { fileSize: users.MAX_LOGO_BYTES } }) : undefined;
    if (!file || file.fieldname !== 'file')
      throw new AppError(400, 'FILE_MISSING', 'errors.fileMissing', { field: 'file' }, [{ field: 'file', key: 'validation.requiredPlain' }]);
    const data = await file.toBuffer().catch(() => {
      throw tooLarge();
    });
    if (file.file.truncated) throw tooLarge();
    return users.saveLogo(deps, auth.user, data);
  });

  route(app, api.logo, { auth: 'user' }, async (request, reply) => {
    const png = await users.logo(deps.storage, requireAuth(request).user);
    return reply.type('image/png').send(png);
  });

  route(app, api.removeLogo, { auth: 'user' }, (request) => users.removeLogo(deps, requireAuth(request).user));

  /** Without a token: mails a confirmation link (signed in). With ?token=: performs the removal. */
  route(app, api.removeAccount, { auth: 'public' }, async (request, reply) => {
    if (!request.query.token) return users.startAccountRemoval(deps, requireAuth(request));
    await users.confirmAccountRemoval(deps, request.query.token);
    await endSession(db, request, reply);
    return { status: 'OK' as const };
  });

  /** Ends every session of the user, on every device (this one included). */
  for (const endpoint of [api.forceLogout, api.forceLogoutGet]) {
    route(app, endpoint, { auth: 'pending' }, async (request, reply) => {
      // A GET is also what a link or an image on another site makes: only from this site (POST needs no check,
      // the session cookie is SameSite=Lax).
      if (request.method === 'GET') assertSameOrigin(request, deps.publicUrl);
      await endAllSessions(db, requireAuth(request).user.id);
      clearSessionCookie(reply);
      return { status: 'OK' as const };
    });
  }
}
