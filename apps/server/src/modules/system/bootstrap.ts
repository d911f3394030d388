import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/client.ts';
import { users } from '../../platform/db/schema/index.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { registerBuiltinModels } from '../catalog/repo.ts';
import { builtinModels } from '../catalog/builtin-models.ts';
import { findUserByEmail, insertUser, normalizeEmail } from '../users/repo.ts';

/**
 * First start: creates the first ADMIN from ADMIN_EMAIL / ADMIN_PASSWORD when no admin exists (a random
 * password is generated and printed when ADMIN_PASSWORD is unset), and registers the built-in models.
 */
export async function bootstrap({ config, db }: { config: Config; db: Db }) {
  await registerBuiltinModels(db, builtinModels);
  const [anyAdmin] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
  if (anyAdmin) return { created: false as const, email: null, generatedPassword: null };
  const email = normalizeEmail(config.adminEmail);
  const password = config.adminPassword ?? randomBytes(12).toString('base64url') + 'Aa1';
  const existing = await findUserByEmail(db, email);
  const passwordHash = await hashPassword(password);
  if (existing) {
    await db.update(users).set({ role: 'ADMIN', passwordHash, emailVerified: true }).where(eq(users.id, existing.id));
  } else {
    await insertUser(db, { email, passwordHash, name: 'Admin', surname: 'Lamella', role: 'ADMIN', emailVerified: true });
  }
  return { created: true as const, email, generatedPassword: config.adminPassword ? null : password };
}
