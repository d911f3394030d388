import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { translationOverrides } from '../../platform/db/schema/index.ts';

export type OverrideRow = typeof translationOverrides.$inferSelect;

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listAll(db: Db): Promise<OverrideRow[]> {
  return db.select().from(translationOverrides).orderBy(asc(translationOverrides.key), asc(translationOverrides.language));
}

export function listOfLanguage(db: Db, language: string): Promise<OverrideRow[]> {
  return db.select().from(translationOverrides).where(eq(translationOverrides.language, language));
}

export function listOfKeys(db: Db, keys: string[]): Promise<OverrideRow[]> {
  if (!keys.length) return Promise.resolve([]);
  return db.select().from(translationOverrides).where(inArray(translationOverrides.key, keys));
}

export async function countAll(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(translationOverrides);
  return Number(row?.n ?? 0);
}

export async function upsert(db: Db, values: { language: string; key: string; value: string; updatedBy: string }): Promise<OverrideRow> {
  const now = new Date();
  const [row] = await db
    .insert(translationOverrides)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({
      target: [translationOverrides.language, translationOverrides.key],
      set: { value: values.value, updatedBy: values.updatedBy, updatedAt: now },
    })
    .returning();
  return row;
}

export async function remove(db: Db, language: string, key: string): Promise<OverrideRow | undefined> {
  const [row] = await db
    .delete(translationOverrides)
    .where(and(eq(translationOverrides.language, language), eq(translationOverrides.key, key)))
    .returning();
  return row;
}
