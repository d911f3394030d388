import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { accessKeys } from '../../platform/db/schema/index.ts';

export type AccessKeyRow = typeof accessKeys.$inferSelect;

export function listForUser(db: Db, userId: string): Promise<AccessKeyRow[]> {
  return db.select().from(accessKeys).where(eq(accessKeys.userId, userId)).orderBy(desc(accessKeys.createdAt));
}

export async function insert(
  db: Db,
  values: { userId: string; name: string; keyHash: string; scope?: AccessKeyRow['scope']; ratePerMinute?: number },
): Promise<AccessKeyRow> {
  const [row] = await db.insert(accessKeys).values(values).returning();
  return row;
}

export async function update(
  db: Db,
  userId: string,
  id: string,
  changes: Partial<Pick<AccessKeyRow, 'enabled' | 'scope' | 'ratePerMinute'>>,
): Promise<AccessKeyRow | undefined> {
  if (!Object.keys(changes).length)
    return (
      await db
        .select()
        .from(accessKeys)
        .where(and(eq(accessKeys.id, id), eq(accessKeys.userId, userId)))
    )[0];
  const [row] = await db
    .update(accessKeys)
    .set(changes)
    .where(and(eq(accessKeys.id, id), eq(accessKeys.userId, userId)))
    .returning();
  return row;
}

export async function remove(db: Db, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(accessKeys)
    .where(and(eq(accessKeys.id, id), eq(accessKeys.userId, userId)))
    .returning({ id: accessKeys.id });
  return rows.length > 0;
}

export async function removeAllForUser(db: Db, userId: string): Promise<void> {
  await db.delete(accessKeys).where(eq(accessKeys.userId, userId));
}
