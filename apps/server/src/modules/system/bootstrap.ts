import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/client.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import { registerBuiltinModels } from '../compute-models/service.ts';
import { builtinModels } from '../catalog/builtin-models.ts';
import { findAnyAdmin, findUserByEmail, insertUser, normalizeEmail, updateUser } from '../users/service.ts';

/**
 * First start: creates the first ADMIN from ADMIN_EMAIL / ADMIN_PASSWORD when no admin exists (a random
 * password is generated and printed when ADMIN_PASSWORD is unset), and registers the built-in models.
 */
export async function bootstrap({ config, db }: { config: Config; db: Db }) {
  await registerBuiltinModels(db, builtinModels);
  if (await findAnyAdmin(db)) return { created: false as const, email: null, generatedPassword: null };
  const email = normalizeEmail(config.adminEmail);
  const password = config.adminPassword ?? randomBytes(12).toString('base64url') + 'Aa1';
  const existing = await findUserByEmail(db, email);
  const passwordHash = await hashPassword(password);
  if (existing) {
    await updateUser(db, existing.id, { role: 'ADMIN', passwordHash, emailVerified: true });
  } else {
    await insertUser(db, { email, passwordHash, name: 'Admin', surname: 'Lamella', role: 'ADMIN', emailVerified: true });
  }
  return { created: true as const, email, generatedPassword: config.adminPassword ? null : password };
}
