import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userTokens } from '../db/schema/index.ts';
import { hashToken, newToken } from './tokens.ts';

type Purpose = (typeof userTokens.$inferSelect)['purpose'];

export const tokenLifetimes: Record<Purpose, number> = {
  VERIFY_EMAIL: 24 * 3600_000,
  RESET_PASSWORD: 3600_000,
  REMOVE_ACCOUNT: 24 * 3600_000,
};

/** Issues a single-use e-mailed token; earlier unused tokens of the same purpose are invalidated. */
export async function issueUserToken(db: Db, userId: string, purpose: Purpose, email?: string): Promise<string> {
  const { token, hash } = newToken();
  await db.transaction(async (tx) => {
    await tx
      .update(userTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose), isNull(userTokens.usedAt)));
    await tx.insert(userTokens).values({ tokenHash: hash, userId, purpose, email, expiresAt: new Date(Date.now() + tokenLifetimes[purpose]) });
  });
  return token;
}

/**
 * Marks the token used and returns it, or null when it is unknown, expired, already used or of another
 * purpose. The update is conditional, so two concurrent uses cannot both succeed.
 */
export async function consumeUserToken(db: Db, token: string, purpose: Purpose) {
  const [row] = await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.tokenHash, hashToken(token)),
        eq(userTokens.purpose, purpose),
        isNull(userTokens.usedAt),
        gt(userTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return row ?? null;
}
