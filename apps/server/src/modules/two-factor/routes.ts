import { twoFactorApi as api } from '@lamella/contracts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { route, type RouteHost } from '../../platform/http/route.ts';
import * as twoFactor from './service.ts';

/** TOTP two-factor authentication (accounts.md §7 "Two-factor"). */
export async function twoFactorRoutes(app: RouteHost, deps: twoFactor.TwoFactorDeps): Promise<void> {
  route(app, api.state, { auth: 'user' }, (request) => twoFactor.state(deps.db, requireAuth(request).user));

  /** Answers the QR code as image/png; the secret is also in `x-otp-secret` for people who cannot scan. */
  route(app, api.start, { auth: 'user' }, async (request, reply) => {
    const { png, secret } = await twoFactor.startEnrolment(deps.db, requireAuth(request));
    return reply.header('x-otp-secret', secret).type('image/png').send(png);
  });

  route(app, api.update, { auth: 'user' }, (request) => twoFactor.setEnabled(deps, requireAuth(request), request.body));

  route(app, api.validate, { auth: 'pending' }, (request, reply) =>
    twoFactor.validateLogin(deps, request, reply, requireAuth(request), request.body.code),
  );
}
