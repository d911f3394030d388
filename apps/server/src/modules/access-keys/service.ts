import { requiredRule, type AccessKey, type CreatedAccessKey } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { newToken } from '../../platform/auth/tokens.ts';
import { notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import * as repo from './repo.ts';

const present = (k: repo.AccessKeyRow): AccessKey => ({
  id: k.id,
  name: k.name,
  createdAt: k.createdAt.toISOString(),
  lastUsed: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
  enabled: k.enabled,
});

/**
 * Access keys for programmatic use (`Authorization: Bearer <code>`). The code is shown once, in the creation
 * answer; only its SHA-256 hash is stored. Another user's key id answers 404.
 */
export async function list(db: Db, userId: string): Promise<AccessKey[]> {
  return (await repo.listForUser(db, userId)).map(present);
}

export async function create(db: Db, userId: string, rawName: string): Promise<CreatedAccessKey> {
  const name = rawName.trim();
  new FieldErrors().add('name', requiredRule(name)).throwIfAny();
  const { token, hash } = newToken('lam_');
  return { ...present(await repo.insert(db, { userId, name, keyHash: hash })), code: token };
}

export async function setEnabled(db: Db, userId: string, id: string, enabled: boolean): Promise<AccessKey> {
  const row = await repo.setEnabled(db, userId, id, enabled);
  if (!row) throw notFound('access key');
  return present(row);
}

export async function remove(db: Db, userId: string, id: string): Promise<void> {
  if (!(await repo.remove(db, userId, id))) throw notFound('access key');
}
