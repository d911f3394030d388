import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { users } from '../../platform/db/schema/index.ts';

/** The two-factor columns of the users table (this module's state). */
export async function setPendingSecret(db: Db, userId: string, secret: string): Promise<void> {
  await db.update(users).set({ totpPendingSecret: secret, updatedAt: new Date() }).where(eq(users.id, userId));
}

/**
 * Records `step` as the last used time step, only when no later-or-equal step was used: one conditional
 * UPDATE, so of two concurrent uses of the same code exactly one gets `true`.
 */
export async function claimStep(db: Db, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return rows.length === 1;
}

export async function activate(db: Db, userId: string, secret: string): Promise<void> {
  await db.update(users).set({ totpSecret: secret, totpPendingSecret: null, totpEnabled: true, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function deactivate(db: Db, userId: string): Promise<void> {
  await db.update(users).set({ totpSecret: null, totpEnabled: false, totpLastStep: null, updatedAt: new Date() }).where(eq(users.id, userId));
}
