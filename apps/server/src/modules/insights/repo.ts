import { and, desc, eq, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { insightDismissals, insights } from '../../platform/db/schema/index.ts';

export type InsightRow = typeof insights.$inferSelect;
export type InsightValues = Pick<typeof insights.$inferInsert, 'titleEn' | 'titleDe' | 'contentEn' | 'contentDe'>;

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listAll(db: Db): Promise<InsightRow[]> {
  return db.select().from(insights).orderBy(desc(insights.createdAt), desc(insights.id));
}

/** Insights the user has not hidden, newest first. */
export function listVisible(db: Db, userId: string): Promise<InsightRow[]> {
  const hidden = db
    .select({ one: sql`1` })
    .from(insightDismissals)
    .where(and(eq(insightDismissals.insightId, insights.id), eq(insightDismissals.userId, userId)));
  return db.select().from(insights).where(notExists(hidden)).orderBy(desc(insights.createdAt), desc(insights.id));
}

export async function find(db: Db, id: string): Promise<InsightRow | undefined> {
  const [row] = await db.select().from(insights).where(eq(insights.id, id));
  return row;
}

export async function insert(db: Db, values: InsightValues): Promise<InsightRow> {
  const [row] = await db.insert(insights).values(values).returning();
  return row;
}

export async function update(db: Db, id: string, values: InsightValues): Promise<InsightRow | undefined> {
  const [row] = await db.update(insights).set(values).where(eq(insights.id, id)).returning();
  return row;
}

export async function remove(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(insights).where(eq(insights.id, id)).returning({ id: insights.id });
  return rows.length > 0;
}

export async function hide(db: Db, userId: string, insightId: string): Promise<void> {
  await db.insert(insightDismissals).values({ userId, insightId }).onConflictDoNothing();
}

/** Shows every insight again to everyone; answers how many hidden entries were removed. */
export async function resetAll(db: Db): Promise<number> {
  const rows = await db.delete(insightDismissals).returning({ userId: insightDismissals.userId });
  return rows.length;
}
