import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGNED_IN_COOKIE } from '@lamella/contracts';
import type { Db } from '../db/client.ts';
import { accessKeys, privileges, sessions, users, groups } from '../db/schema/index.ts';
import { hashToken, newToken } from './tokens.ts';
import { countKeyUse } from './key-usage.ts';
import type { ChangeCache } from '../db/change-cache.ts';

export const SESSION_COOKIE = 'lamella_session';
/** While an admin impersonates: their own session's token, to come back to ("Back to my account"). */
export const RETURN_COOKIE = 'lamella_return';
/** Readable by the web app (not HttpOnly, no secret in it): "this browser has a session" (contracts users.ts). */
export { SIGNED_IN_COOKIE };
/** An impersonation lasts one hour and is not renewed by use. */
export const IMPERSONATION_MS = 60 * 60 * 1000;
const RENEW_AFTER_MS = 60 * 60 * 1000;
const KEY_TOUCH_AFTER_MS = 60 * 1000;

export type UserRow = typeof users.$inferSelect;

export interface AuthContext {
  user: UserRow;
  permissions: string[];
  grpAdmin: boolean;
  via: 'session' | 'key';
  sessionId: string | null;
  twoFactorPending: boolean;
  impersonatorId: string | null;
  /** The access key that authenticated the request (via 'key'): its scope and requests a minute. */
  key?: { id: string; scope: 'READ_ONLY' | 'READ_WRITE'; ratePerMinute: number };
}

export interface SessionOptions {
  ttlDays: number;
  secureCookies: boolean;
  /** The guard's reads kept between requests, per token hash under the user's id (change-cache.ts; SESSION_CACHE_SECONDS, 0: none). */
  cache?: ChangeCache<SessionLookupRow> | null;
}

/** Sets a new session cookie for `userId`; the previous session of this browser (if any) is ended (rotation). */
export async function startSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: SessionOptions,
  userId: string,
  extra: { twoFactorPending?: boolean; impersonatorId?: string | null } = {},
): Promise<void> {
  const previous = request.cookies[SESSION_COOKIE];
  if (previous) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(previous)));
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + opts.ttlDays * 86_400_000);
  await db.insert(sessions).values({
    tokenHash: hash,
    userId,
    expiresAt,
    twoFactorPending: extra.twoFactorPending ?? false,
    impersonatorId: extra.impersonatorId ?? null,
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300),
  });
  setSessionCookie(reply, token, { secure: opts.secureCookies, expires: expiresAt });
}

/** The session cookie and its readable marker (SIGNED_IN_COOKIE), with the same lifetime. */
export function setSessionCookie(reply: FastifyReply, token: string, opts: { secure: boolean; expires: Date }): void {
  reply.setCookie(SESSION_COOKIE, token, { path: '/', sameSite: 'lax', secure: opts.secure, expires: opts.expires, httpOnly: true });
  setSignedInMarker(reply, opts);
}

/** The readable marker alone (SIGNED_IN_COOKIE); without `expires` it lasts the browser's session. */
export function setSignedInMarker(reply: FastifyReply, opts: { secure: boolean; expires?: Date }): void {
  reply.setCookie(SIGNED_IN_COOKIE, '1', { path: '/', sameSite: 'lax', secure: opts.secure, expires: opts.expires, httpOnly: false });
}

/** Signs this browser out: the session cookie and its marker go. */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  reply.clearCookie(SIGNED_IN_COOKIE, { path: '/' });
}

/**
 * The admin's browser acts as `userId` for an hour: a new session marked with the impersonator, while the
 * admin's own session stays valid and its token waits in RETURN_COOKIE for `endImpersonation`.
 */
export async function startImpersonation(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  opts: SessionOptions,
  userId: string,
  impersonatorId: string,
): Promise<void> {
  const own = request.cookies[SESSION_COOKIE];
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + IMPERSONATION_MS);
  await db.insert(sessions).values({
    tokenHash: hash,
    userId,
    expiresAt,
    impersonatorId,
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300),
  });
  setSessionCookie(reply, token, { secure: opts.secureCookies, expires: expiresAt });
  if (own) reply.setCookie(RETURN_COOKIE, own, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secureCookies, expires: expiresAt });
}

/**
 * Ends the impersonation session of this browser and puts the impersonator's own session back when it is
 * still theirs and valid (else the browser is signed out). True when the admin's session was restored.
 */
export async function endImpersonation(db: Db, request: FastifyRequest, reply: FastifyReply, auth: AuthContext): Promise<boolean> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  const back = request.cookies[RETURN_COOKIE];
  reply.clearCookie(RETURN_COOKIE, { path: '/' });
  const [own] = back
    ? await db
        .select({ userId: sessions.userId, expiresAt: sessions.expiresAt, impersonatorId: sessions.impersonatorId })
        .from(sessions)
        .where(and(eq(sessions.tokenHash, hashToken(back)), gt(sessions.expiresAt, new Date())))
        .limit(1)
    : [];
  if (!back || !own || own.userId !== auth.impersonatorId || own.impersonatorId) {
    clearSessionCookie(reply);
    return false;
  }
  setSessionCookie(reply, back, { secure: request.protocol === 'https', expires: own.expiresAt });
  return true;
}

export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  clearSessionCookie(reply);
}

export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/**
 * The caller's permissions (`resource.action`) and whether they administer a group, as columns of the same
 * statement that reads the session or key and its user: one round trip per request (issue 15).
 */
const permissionsOfUser = sql<
  string[]
>`coalesce((select array_agg(p.resource || '.' || p.action) from ${privileges} p where p.user_id = ${users.id}), '{}'::text[])`;
const isGroupAdmin = sql<boolean>`exists(select 1 from ${groups} g where g.admin_id = ${users.id})`;

/** Session + user + privileges + group admin, by token hash: one prepared statement per database (cached by Db). */
const sessionStatements = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();
export type SessionLookupRow = Awaited<ReturnType<ReturnType<typeof prepareSessionLookup>['execute']>>[number];
function prepareSessionLookup(db: Db) {
  return db
    .select({ session: sessions, user: users, permissions: permissionsOfUser, grpAdmin: isGroupAdmin })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('hash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .limit(1)
    .prepare('lamella_auth_session');
}

/**
 * Resolves the caller from the session cookie or an `Authorization: Bearer <access key>` header. One statement
 * reads the session, its user, the privileges and group administration. With `opts.cache` its row is kept per
 * token until any of it changes (change-cache.ts: NOTIFY from every replica, and this replica's own writes), so
 * a role, block or privilege change takes effect on the caller's next request. Expiry is checked on every request.
 * The session's renewal (sliding expiry) is written at most once per RENEW_AFTER_MS.
 */
export async function authenticate(db: Db, request: FastifyRequest, opts: SessionOptions): Promise<AuthContext | null> {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) {
    return authenticateKey(db, header.slice(7).trim());
  }
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const now = new Date();
  const hash = hashToken(token);
  const cache = opts.cache;
  let row = cache?.get(hash);
  if (!row) {
    let lookup = sessionStatements.get(db);
    if (!lookup) sessionStatements.set(db, (lookup = prepareSessionLookup(db)));
    const generation = cache?.begin() ?? 0;
    [row] = await lookup.execute({ hash, now });
    if (row && cache) cache.set(hash, row.user.id, row, generation);
  }
  if (!row || row.user.role === 'BLOCKED' || row.session.expiresAt.getTime() <= now.getTime()) return null;
  // An impersonation keeps its one hour; other sessions slide.
  if (!row.session.impersonatorId && now.getTime() - row.session.lastSeenAt.getTime() > RENEW_AFTER_MS) {
    cache?.delete(hash);
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + opts.ttlDays * 86_400_000) })
      .where(eq(sessions.id, row.session.id));
  }
  return {
    user: row.user,
    permissions: row.permissions ?? [],
    grpAdmin: Boolean(row.grpAdmin),
    via: 'session',
    sessionId: row.session.id,
    twoFactorPending: row.session.twoFactorPending,
    impersonatorId: row.session.impersonatorId,
  };
}

/** An access key authenticates as its owner; a disabled key or a blocked owner is refused. */
async function authenticateKey(db: Db, code: string): Promise<AuthContext | null> {
  const [row] = await db
    .select({ key: accessKeys, user: users, permissions: permissionsOfUser, grpAdmin: isGroupAdmin })
    .from(accessKeys)
    .innerJoin(users, eq(users.id, accessKeys.userId))
    .where(eq(accessKeys.keyHash, hashToken(code)))
    .limit(1);
  if (!row || !row.key.enabled || row.user.role === 'BLOCKED') return null;
  // every request counts (the owner sees the count), written in batches (key-usage.ts); the time of last use
  // is recorded at most once a minute
  const now = Date.now();
  const touch = !row.key.lastUsedAt || now - row.key.lastUsedAt.getTime() > KEY_TOUCH_AFTER_MS;
  countKeyUse(db, row.key.id, touch ? new Date(now) : null);
  return {
    user: row.user,
    permissions: row.permissions ?? [],
    grpAdmin: Boolean(row.grpAdmin),
    via: 'key',
    sessionId: null,
    twoFactorPending: false,
    impersonatorId: null,
    key: { id: row.key.id, scope: row.key.scope, ratePerMinute: row.key.ratePerMinute },
  };
}

export async function loadUserContext(db: Db, user: UserRow): Promise<Pick<AuthContext, 'user' | 'permissions' | 'grpAdmin'>> {
  const [perms, adminOf] = await Promise.all([
    db.select({ resource: privileges.resource, action: privileges.action }).from(privileges).where(eq(privileges.userId, user.id)),
    db.select({ id: groups.id }).from(groups).where(eq(groups.adminId, user.id)).limit(1),
  ]);
  return { user, permissions: perms.map((p) => `${p.resource}.${p.action}`), grpAdmin: adminOf.length > 0 };
}

/** Ends the user's other sessions (a password change keeps the session that made it). */
export async function endOtherSessions(db: Db, userId: string, keepSessionId: string | null): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}
