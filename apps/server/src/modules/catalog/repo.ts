import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { userFavorites } from '../../platform/db/schema/index.ts';

/** The user's explicit choices per model (a model without one follows its "shown by default"). */
export async function listFavoriteChoices(db: Db, userId: string): Promise<Map<string, boolean>> {
  const rows = await db.select().from(userFavorites).where(eq(userFavorites.userId, userId));
  return new Map(rows.map((r) => [r.modelId, r.favorite]));
}

export async function setFavorite(db: Db, userId: string, modelId: string, favorite: boolean): Promise<void> {
  await db
    .insert(userFavorites)
    .values({ userId, modelId, favorite })
    .onConflictDoUpdate({ target: [userFavorites.userId, userFavorites.modelId], set: { favorite } });
}
