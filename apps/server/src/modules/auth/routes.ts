import { authApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { endSession } from '../../platform/auth/session.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as auth from './service.ts';
import { endImpersonation } from '../admin-users/service.ts';

/** The session service under /api/auth (accounts.md §7, SuperTokens-shaped bodies). */
export async function authRoutes(app: RouteHost, deps: auth.AuthDeps): Promise<void> {
  const { db } = deps;
  route(app, api.signup, { auth: 'public' }, async (request, reply) => {
    const user = await auth.signup(deps, request, reply, request.body.formFields);
    return { status: 'OK' as const, user: await auth.meAfterSignin(db, user.id, false) };
  });

  route(app, api.signin, { auth: 'public' }, async (request, reply) => {
    const user = await auth.signin(deps, request, reply, request.body.formFields);
    return { status: 'OK' as const, user: await auth.meAfterSignin(db, user.id, user.totpEnabled), twoFactorRequired: user.totpEnabled };
  });

  route(app, api.signout, { auth: 'public' }, async (request, reply) => {
    // Signing out while impersonating ends only the impersonation: the admin is back in their own account.
    if (request.auth?.impersonatorId) await endImpersonation(db, request, reply, request.auth);
    else await endSession(db, request, reply);
    return { status: 'OK' as const };
  });

  route(app, api.requestVerificationMail, { auth: 'session' }, async (request) => ({
    status: await auth.resendVerification(deps, requireAuth(request).user),
  }));

  route(app, api.verificationState, { auth: 'session' }, (request) => ({
    status: 'OK' as const,
    isVerified: requireAuth(request).user.emailVerified,
  }));

  route(app, api.verifyEmail, { auth: 'public' }, (request) => auth.verifyEmail(db, request.body.token));

  route(app, api.requestPasswordReset, { auth: 'public' }, (request) => auth.requestPasswordReset(deps, request, request.body.formFields));

  route(app, api.resetPassword, { auth: 'public' }, (request) => auth.resetPassword(deps, request, request.body.token, request.body.formFields));
}
