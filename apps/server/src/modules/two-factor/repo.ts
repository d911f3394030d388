import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { totpRecoveryCodes, users } from '../../platform/db/schema/index.ts';

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

/**
 * Makes `secret` the account's authenticator, only while `pendingSecret` is still the pending one (a second
 * enrolment started meanwhile wins), and replaces the recovery codes, in one transaction. `step`: the time step of
 * the code that proved the new secret, so that code cannot be used again (e.g. to sign in).
 */
export async function activate(db: Db, userId: string, secret: string, step: number, recoveryCodeHashes: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(users)
      .set({
        totpSecret: secret,
        totpPendingSecret: null,
        totpEnabled: true,
        totpLastStep: sql`greatest(coalesce(${users.totpLastStep}, 0), ${step})`,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, userId), eq(users.totpPendingSecret, secret)))
      .returning({ id: users.id });
    if (rows.length !== 1) return false;
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
    await tx.insert(totpRecoveryCodes).values(recoveryCodeHashes.map((codeHash) => ({ userId, codeHash })));
    return true;
  });
}

export async function deactivate(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpPendingSecret: null, totpEnabled: false, totpLastStep: null, updatedAt: new Date() })
      .where(eq(users.id, userId));
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
  });
}

/** Spends a recovery code: one conditional DELETE, so of two concurrent uses exactly one gets `true`. */
export async function spendRecoveryCode(db: Db, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .delete(totpRecoveryCodes)
    .where(and(eq(totpRecoveryCodes.userId, userId), eq(totpRecoveryCodes.codeHash, codeHash)))
    .returning({ userId: totpRecoveryCodes.userId });
  return rows.length === 1;
}

export async function countRecoveryCodes(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(totpRecoveryCodes)
    .where(eq(totpRecoveryCodes.userId, userId));
  return Number(row?.n ?? 0);
}
