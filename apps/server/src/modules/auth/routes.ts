import {
  ResetPasswordBody,
  ResetTokenBody,
  SigninBody,
  SigninResponse,
  SignupBody,
  SignupResponse,
  StatusOk,
  VerifyEmailBody,
  VerifyStateResponse,
  VerifyTokenResponse,
} from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { endSession, loadUserContext } from '../../platform/auth/session.ts';
import { findUserById } from '../users/repo.ts';
import { presentMe } from '../users/present.ts';
import * as auth from './service.ts';

const tags = ['auth'];

/** The session service under /api/auth (accounts.md §7, SuperTokens-shaped bodies). */
export async function authRoutes(app: App, ctx: Ctx): Promise<void> {
  const meFor = async (userId: string, twoFactorPending: boolean) => {
    const user = (await findUserById(ctx.db, userId))!;
    return presentMe({ ...(await loadUserContext(ctx.db, user)), twoFactorPending });
  };

  app.post(
    '/auth/signup',
    { config: { auth: 'public' }, schema: { tags, body: SignupBody, response: { 200: SignupResponse } } },
    async (request, reply) => {
      const user = await auth.signup(ctx, request, reply, request.body.formFields);
      return { status: 'OK' as const, user: await meFor(user.id, false) };
    },
  );

  app.post(
    '/auth/signin',
    { config: { auth: 'public' }, schema: { tags, body: SigninBody, response: { 200: SigninResponse } } },
    async (request, reply) => {
      const user = await auth.signin(ctx, request, reply, request.body.formFields);
      return { status: 'OK' as const, user: await meFor(user.id, user.totpEnabled), twoFactorRequired: user.totpEnabled };
    },
  );

  app.post('/auth/signout', { config: { auth: 'public' }, schema: { tags, response: { 200: StatusOk } } }, async (request, reply) => {
    await endSession(ctx.db, request, reply);
    return { status: 'OK' as const };
  });

  app.post(
    '/auth/user/email/verify/token',
    { config: { auth: 'session' }, schema: { tags, response: { 200: VerifyTokenResponse } } },
    async (request) => {
      return { status: await auth.resendVerification(ctx, requireAuth(request).user) };
    },
  );

  app.get('/auth/user/email/verify', { config: { auth: 'session' }, schema: { tags, response: { 200: VerifyStateResponse } } }, async (request) => ({
    status: 'OK' as const,
    isVerified: requireAuth(request).user.emailVerified,
  }));

  app.post(
    '/auth/user/email/verify',
    { config: { auth: 'public' }, schema: { tags, body: VerifyEmailBody, response: { 200: StatusOk } } },
    async (request) => {
      await auth.verifyEmail(ctx, request.body.token);
      return { status: 'OK' as const };
    },
  );

  app.post(
    '/auth/user/password/reset/token',
    { config: { auth: 'public' }, schema: { tags, body: ResetTokenBody, response: { 200: StatusOk } } },
    async (request) => {
      await auth.requestPasswordReset(ctx, request, request.body.formFields);
      return { status: 'OK' as const };
    },
  );

  app.post(
    '/auth/user/password/reset',
    { config: { auth: 'public' }, schema: { tags, body: ResetPasswordBody, response: { 200: StatusOk } } },
    async (request) => {
      await auth.resetPassword(ctx, request, request.body.token, request.body.formFields);
      return { status: 'OK' as const };
    },
  );
}
