import { requiredRule, type AccessKey, type CreateAccessKeyBody, type CreatedAccessKey, type UpdateAccessKeyBody } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { newToken } from '../../platform/auth/tokens.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { forbidWhileImpersonating } from '../../platform/auth/guard.ts';
import { flushKeyUse } from '../../platform/auth/key-usage.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import * as repo from './repo.ts';

const present = (k: repo.AccessKeyRow): AccessKey => ({
  id: k.id,
  name: k.name,
  createdAt: k.createdAt.toISOString(),
  lastUsed: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  enabled: k.enabled,
  scope: k.scope,
  ratePerMinute: k.ratePerMinute,
  requestCount: k.requestCount,
});

/**
 * Access keys for programmatic use (`Authorization: Bearer <code>`). The code is shown once, in the creation
 * answer; only its SHA-256 hash is stored. Another user's key id answers 404.
 */
export async function list(db: Db, userId: string): Promise<AccessKey[]> {
  await flushKeyUse(db);
  return (await repo.listForUser(db, userId)).map(present);
}

/**
 * A caller signed in with an access key cannot make more keys (a leaked key must not breed new ones), nor can an
 * impersonating admin (a key would outlive the impersonation's hour).
 */
export async function create(
  db: Db,
  auth: Pick<AuthContext, 'user' | 'via' | 'impersonatorId'>,
  body: CreateAccessKeyBody,
): Promise<CreatedAccessKey> {
  forbidWhileImpersonating(auth);
  if (auth.via === 'key') throw new AppError(403, 'ACCESS_KEY_CANNOT_CREATE_KEYS', 'errors.keyCannotCreateKeys');
  const userId = auth.user.id;
  const name = body.name.trim();
  new FieldErrors().add('name', requiredRule(name)).throwIfAny();
  const { token, hash } = newToken('lam_');
  return { ...present(await repo.insert(db, { userId, name, keyHash: hash, scope: body.scope, ratePerMinute: body.ratePerMinute })), code: token };
}

/**
 * Enabling a key, or widening it to READ_WRITE, is refused while impersonating (disabling and narrowing are not:
 * they reduce access). A caller signed in with an access key cannot change keys (a read-only key must not make
 * itself read-write).
 */
export async function update(
  db: Db,
  auth: Pick<AuthContext, 'user' | 'via' | 'impersonatorId'>,
  id: string,
  body: UpdateAccessKeyBody,
): Promise<AccessKey> {
  if (body.enabled === true || body.scope === 'READ_WRITE') forbidWhileImpersonating(auth);
  if (auth.via === 'key') throw new AppError(403, 'ACCESS_KEY_CANNOT_MANAGE_KEYS', 'errors.keyCannotManageKeys');
  const userId = auth.user.id;
  const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const row = await repo.update(db, userId, id, changes);
  if (!row) throw notFound('access key');
  return present(row);
}

export async function remove(db: Db, userId: string, id: string): Promise<void> {
  if (!(await repo.remove(db, userId, id))) throw notFound('access key');
}

/** Revokes every key of the user (their password was reset or changed). */
export async function revokeAll(db: Db, userId: string): Promise<void> {
  await repo.removeAllForUser(db, userId);
}
