import { TwoFactorState, TwoFactorUpdateBody, TwoFactorValidateBody, TwoFactorValidateResponse } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { startSession } from '../../platform/auth/session.ts';
import { presentMe } from '../users/present.ts';
import { findUserById } from '../users/repo.ts';
import * as twoFactor from './service.ts';

const tags = ['two-factor'];

/** TOTP two-factor authentication (accounts.md §7 "Two-factor"). */
export async function twoFactorRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/users/2fa', { config: { auth: 'user' }, schema: { tags, response: { 200: TwoFactorState } } }, async (request) => ({
    enabled: requireAuth(request).user.totpEnabled,
  }));

  /** Answers the QR code as image/png; the secret is also in `x-otp-secret` for people who cannot scan. */
  app.post('/users/2fa', { config: { auth: 'user' }, schema: { tags } }, async (request, reply) => {
    const { png, secret } = await twoFactor.startEnrolment(ctx, requireAuth(request).user);
    reply.header('x-otp-secret', secret).header('cache-control', 'no-store').type('image/png');
    return reply.send(png);
  });

  app.put(
    '/users/2fa',
    { config: { auth: 'user' }, schema: { tags, body: TwoFactorUpdateBody, response: { 200: TwoFactorState } } },
    async (request) => {
      const auth = requireAuth(request);
      ctx.limiter.hit([[`otp:acct:${auth.user.id}`, ctx.limiter.limits.otpAccount]]);
      return { enabled: await twoFactor.setEnabled(ctx, auth.user, request.body.code, request.body.enable) };
    },
  );

  /** Completes a sign-in that owes the second factor: the pending session is replaced by a full one. */
  app.post(
    '/users/2fa/validate',
    { config: { auth: 'pending' }, schema: { tags, body: TwoFactorValidateBody, response: { 200: TwoFactorValidateResponse } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      ctx.limiter.hit([
        [`otp:acct:${auth.user.id}`, ctx.limiter.limits.otpAccount],
        [`otp:ip:${request.ip}`, ctx.limiter.limits.otpAddress],
      ]);
      await twoFactor.validateLogin(ctx, auth.user, request.body.code);
      ctx.limiter.reset(`otp:acct:${auth.user.id}`);
      await startSession(ctx.db, request, reply, ctx.sessionOptions, auth.user.id, { impersonatorId: auth.impersonatorId });
      const user = (await findUserById(ctx.db, auth.user.id))!;
      return { status: 'OK' as const, user: presentMe({ ...auth, user, twoFactorPending: false }) };
    },
  );
}
