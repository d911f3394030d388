import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images } from '../../platform/db/schema/index.ts';

export type ImageRow = typeof images.$inferSelect;

export async function findImage(db: Db, id: string): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id)).limit(1);
  return row;
}

export async function listOwnImages(db: Db, ownerId: string, limit: number): Promise<ImageRow[]> {
  return db
    .select()
    .from(images)
    .where(and(eq(images.ownerId, ownerId), eq(images.isDeleted, false)))
    .orderBy(desc(images.createdAt))
    .limit(limit);
}
