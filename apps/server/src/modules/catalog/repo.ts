import { and, asc, eq, or, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, modelAccess, modelVersions, userFavorites } from '../../platform/db/schema/index.ts';
import type { BuiltinModel } from './builtin-models.ts';

export type ModelRow = typeof computeModels.$inferSelect;

/** Models the user may run: PUBLIC ones and PRIVATE ones granted to them (ADMIN sees all). */
export async function listAccessibleModels(db: Db, userId: string, isAdmin: boolean): Promise<ModelRow[]> {
  if (isAdmin) return db.select().from(computeModels).orderBy(asc(computeModels.displayName));
  const granted = db.select({ id: modelAccess.modelId }).from(modelAccess).where(eq(modelAccess.userId, userId));
  return db
    .select()
    .from(computeModels)
    .where(or(eq(computeModels.accessType, 'PUBLIC'), inArray(computeModels.id, granted)))
    .orderBy(asc(computeModels.displayName));
}

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

/** Inserts missing built-in models and their versions; existing rows keep the staff's edits. */
export async function registerBuiltinModels(db: Db, models: BuiltinModel[]): Promise<void> {
  for (const m of models) {
    await db
      .insert(computeModels)
      .values({
        internalName: m.internalName,
        routingPath: `/${m.internalName}`,
        storagePath: `builtin/${m.internalName}`,
        displayName: m.displayName,
        version: m.version,
        accessType: m.accessType,
        isDefaultVisible: m.isDefaultVisible,
        builtIn: true,
      })
      .onConflictDoNothing({ target: computeModels.internalName });
    const [row] = await db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, m.internalName));
    for (const version of m.versions) {
      await db.insert(modelVersions).values({ modelId: row.id, version }).onConflictDoNothing();
    }
  }
}

export async function findModel(db: Db, id: string): Promise<ModelRow | undefined> {
  const [row] = await db
    .select()
    .from(computeModels)
    .where(and(eq(computeModels.id, id)))
    .limit(1);
  return row;
}
