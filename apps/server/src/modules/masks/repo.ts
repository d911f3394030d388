import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { masks } from '../../platform/db/schema/index.ts';

export type MaskRow = typeof masks.$inferSelect;
export type NewMaskRow = typeof masks.$inferInsert;

export async function findMask(db: Db, id: string): Promise<MaskRow | undefined> {
  const [row] = await db.select().from(masks).where(eq(masks.id, id)).limit(1);
  return row;
}

export async function insertMask(db: Db, values: NewMaskRow): Promise<MaskRow> {
  const [row] = await db.insert(masks).values(values).returning();
  return row;
}
