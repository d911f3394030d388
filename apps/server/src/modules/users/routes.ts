import { Account, ConsentBody, Me, RemovalQuery, StatusOk, UpdateAuthBody, UpdateAuthResponse, UpdateProfileBody } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { endAllSessions, endSession } from '../../platform/auth/session.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { findUserById } from './repo.ts';
import { presentAccount, presentMe } from './present.ts';
import * as users from './service.ts';

const tags = ['users'];

/** The signed-in user's own account (accounts.md §7 "Profile and account"). */
export async function usersRoutes(app: App, ctx: Ctx): Promise<void> {
  app.get('/users/me', { config: { auth: 'pending' }, schema: { tags, response: { 200: Me } } }, async (request) => {
    const auth = requireAuth(request);
    const impersonator = auth.impersonatorId ? await findUserById(ctx.db, auth.impersonatorId) : undefined;
    return presentMe(auth, impersonator ? { id: impersonator.id, fullName: `${impersonator.name} ${impersonator.surname}` } : null);
  });

  app.get('/users/me/account', { config: { auth: 'session' }, schema: { tags, response: { 200: Account } } }, async (request) =>
    presentAccount(ctx.db, requireAuth(request).user),
  );

  app.patch('/users/me', { config: { auth: 'user' }, schema: { tags, body: UpdateProfileBody, response: { 200: Account } } }, async (request) => {
    const user = await users.updateProfile(ctx, requireAuth(request).user, request.body);
    return presentAccount(ctx.db, user);
  });

  app.patch(
    '/users/me/auth',
    { config: { auth: 'user' }, schema: { tags, body: UpdateAuthBody, response: { 200: UpdateAuthResponse } } },
    async (request) => {
      const auth = requireAuth(request);
      const { emailChanged } = await users.updateAuth(ctx, auth.user, auth.sessionId, request.body);
      return { status: 'OK' as const, emailChanged };
    },
  );

  app.patch('/users/me/consent', { config: { auth: 'user' }, schema: { tags, body: ConsentBody, response: { 200: Account } } }, async (request) => {
    const user = await users.setTrainingConsent(ctx, requireAuth(request).user, request.body.trainingConsent);
    return presentAccount(ctx.db, user);
  });

  app.put(
    '/users/me/logo',
    { config: { auth: 'user' }, schema: { tags, consumes: ['multipart/form-data'], response: { 200: StatusOk } } },
    async (request) => {
      const auth = requireAuth(request);
      const file = request.isMultipart() ? await request.file({ limits: { fileSize: users.MAX_LOGO_BYTES } }) : undefined;
      if (!file || file.fieldname !== 'file')
        throw new AppError(400, 'FILE_MISSING', 'errors.fileMissing', { field: 'file' }, [{ field: 'file', key: 'validation.requiredPlain' }]);
      const data = await file.toBuffer().catch(() => {
        throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'errors.fileTooLarge', { max: '5 MB' });
      });
      if (file.file.truncated) throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'errors.fileTooLarge', { max: '5 MB' });
      await users.saveLogo(ctx, auth.user, data);
      return { status: 'OK' as const };
    },
  );

  app.get('/users/me/logo', { config: { auth: 'user' }, schema: { tags } }, async (request, reply) => {
    const { user } = requireAuth(request);
    if (!user.logoKey || !(await ctx.storage.exists(user.logoKey))) throw notFound('logo');
    reply.header('cache-control', 'private, no-cache').type('image/png');
    return reply.send(await ctx.storage.get(user.logoKey));
  });

  app.delete('/users/me/logo', { config: { auth: 'user' }, schema: { tags, response: { 200: StatusOk } } }, async (request) => {
    await users.removeLogo(ctx, requireAuth(request).user);
    return { status: 'OK' as const };
  });

  /** Without a token: mails a confirmation link (signed in). With ?token=: performs the removal. */
  app.delete(
    '/users/me',
    { config: { auth: 'public' }, schema: { tags, querystring: RemovalQuery, response: { 200: StatusOk } } },
    async (request, reply) => {
      if (request.query.token) {
        await users.confirmAccountRemoval(ctx, request.query.token);
        await endSession(ctx.db, request, reply);
        return { status: 'OK' as const };
      }
      const auth = requireAuth(request);
      if (auth.twoFactorPending) throw new AppError(401, 'TWO_FACTOR_REQUIRED', 'errors.twoFactorPending');
      await users.startAccountRemoval(ctx, auth.user);
      return { status: 'OK' as const };
    },
  );

  /** Ends every session of the user, on every device (this one included). */
  app.get('/users/me/force-logout', { config: { auth: 'pending' }, schema: { tags, response: { 200: StatusOk } } }, async (request, reply) => {
    await endAllSessions(ctx.db, requireAuth(request).user.id);
    reply.clearCookie('lamella_session', { path: '/' });
    return { status: 'OK' as const };
  });
}
