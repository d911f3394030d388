import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '@lamella/contracts';
import { AppError, forbidden, unauthenticated } from '../http/errors.ts';
import { authenticate, type AuthContext, type SessionOptions } from './session.ts';
import type { Db } from '../db/client.ts';
import type { Limiter } from '../http/rate-limit.ts';

/**
 * One guard declared per route in `config.auth`:
 * - 'public': anyone;
 * - 'pending': a signed-in caller even with the second factor still owed (GET /users/me, the OTP check, sign-out);
 * - 'session': a signed-in caller whose e-mail may still be unverified (the calls that complete verification);
 * - 'user': a signed-in, verified caller;
 * - { roles }: one of the roles; { permission }: ADMIN, or a POWER_USER holding the permission.
 */
export type Guard = 'public' | 'pending' | 'session' | 'user' | { roles: Role[] } | { permission: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: Guard;
    /** The parts of a multipart body (route.ts), for the OpenAPI document. */
    multipartBody?: unknown;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * A call made with an access key counts against the key's own requests a minute (429 RATE_LIMITED with Retry-After,
 * in the app's limiter: per process, or shared in Redis), and a READ_ONLY key may only read (GET/HEAD).
 */
async function checkAccessKey(request: FastifyRequest, key: NonNullable<AuthContext['key']>, limiter: Limiter | undefined): Promise<void> {
  if (key.scope === 'READ_ONLY' && request.method !== 'GET' && request.method !== 'HEAD')
    throw new AppError(403, 'ACCESS_KEY_READ_ONLY', 'errors.keyReadOnly');
  if (!limiter) return;
  try {
    await limiter.hit([[`access-key:${key.id}`, { max: key.ratePerMinute, windowMs: 60_000 }]], 'errors.keyRateLimited');
  } catch (e) {
    if (e instanceof AppError) throw new AppError(e.statusCode, e.code, e.key, { ...e.vars, limit: key.ratePerMinute }, e.details, e.headers);
    throw e;
  }
}

export function registerGuard(app: FastifyInstance, db: Db, opts: SessionOptions, limiter?: Limiter): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    const guard = request.routeOptions.config?.auth;
    if (!guard) return; // static files and 404s
    request.auth = await authenticate(db, request, opts);
    if (request.auth?.key) await checkAccessKey(request, request.auth.key, limiter);
    if (guard === 'public') return;
    const auth = requireAuth(request);
    if (guard === 'pending') return;
    if (auth.twoFactorPending) throw new AppError(401, 'TWO_FACTOR_REQUIRED', 'errors.twoFactorPending');
    if (guard === 'session') return;
    if (!auth.user.emailVerified) throw new AppError(403, 'EMAIL_NOT_VERIFIED', 'errors.emailNotVerified');
    if (guard === 'user') return;
    if ('roles' in guard) {
      if (!guard.roles.includes(auth.user.role)) throw forbidden();
      return;
    }
    if (!hasPermission(auth, guard.permission)) throw forbidden();
  });
  // Answers for a signed-in caller (or of a guarded route) must not be kept by browsers or proxies.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    const guard = request.routeOptions.config?.auth;
    if (request.auth || (guard && guard !== 'public')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export function hasPermission(auth: AuthContext, permission: string): boolean {
  if (auth.user.role === 'ADMIN') return true;
  return auth.user.role === 'POWER_USER' && auth.permissions.includes(permission);
}

/**
 * While an admin impersonates a user, nothing that outlives the impersonation's hour may be made for the user
 * (access keys, a second factor, a new password or e-mail address), and no further impersonation may start: 403
 * IMPERSONATION_FORBIDDEN (issue 28 item 6).
 */
export function forbidWhileImpersonating(auth: Pick<AuthContext, 'impersonatorId'>): void {
  if (auth.impersonatorId) throw new AppError(403, 'IMPERSONATION_FORBIDDEN', 'errors.impersonationForbidden');
}
