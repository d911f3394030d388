import { and, eq, gt, ne } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { accessKeys, privileges, sessions, users, groups } from '../db/schema/index.ts';
import { hashToken, newToken } from './tokens.ts';

export const SESSION_COOKIE = 'lamella_session';
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
}

export interface SessionOptions {
  ttlDays: number;
  secureCookies: boolean;
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
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: opts.secureCookies,
    expires: expiresAt,
  });
}

export async function endSession(db: Db, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

export async function endAllSessions(db: Db, userId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Resolves the caller from the session cookie or an `Authorization: Bearer <access key>` header. */
export async function authenticate(db: Db, request: FastifyRequest, opts: SessionOptions): Promise<AuthContext | null> {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) {
    return authenticateKey(db, header.slice(7).trim());
  }
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const now = new Date();
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now)))
    .limit(1);
  if (!row || row.user.role === 'BLOCKED') return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() > RENEW_AFTER_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + opts.ttlDays * 86_400_000) })
      .where(eq(sessions.id, row.session.id));
  }
  return {
    ...(await loadUserContext(db, row.user)),
    via: 'session',
    sessionId: row.session.id,
    twoFactorPending: row.session.twoFactorPending,
    impersonatorId: row.session.impersonatorId,
  };
}

/** An access key authenticates as its owner; a disabled key or a blocked owner is refused. */
async function authenticateKey(db: Db, code: string): Promise<AuthContext | null> {
  const [row] = await db
    .select({ key: accessKeys, user: users })
    .from(accessKeys)
    .innerJoin(users, eq(users.id, accessKeys.userId))
    .where(eq(accessKeys.keyHash, hashToken(code)))
    .limit(1);
  if (!row || !row.key.enabled || row.user.role === 'BLOCKED') return null;
  const now = Date.now();
  if (!row.key.lastUsedAt || now - row.key.lastUsedAt.getTime() > KEY_TOUCH_AFTER_MS) {
    await db
      .update(accessKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(eq(accessKeys.id, row.key.id));
  }
  return { ...(await loadUserContext(db, row.user)), via: 'key', sessionId: null, twoFactorPending: false, impersonatorId: null };
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
