import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { termsAcceptances, termsVersions } from '../../platform/db/schema/index.ts';

export type TermsVersionRow = typeof termsVersions.$inferSelect;

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

/** The newest saved text of a language. */
export async function latestOf(db: Db, language: string): Promise<TermsVersionRow | undefined> {
  const [row] = await db.select().from(termsVersions).where(eq(termsVersions.language, language)).orderBy(desc(termsVersions.version)).limit(1);
  return row;
}

/** The newest saved text of either language: the current version. */
export async function latestAny(db: Db): Promise<TermsVersionRow | undefined> {
  const [row] = await db.select().from(termsVersions).orderBy(desc(termsVersions.version)).limit(1);
  return row;
}

/** The highest version of either language; 0 when nothing was ever published. */
export async function currentVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: sql<number>`coalesce(max(${termsVersions.version}), 0)::int` }).from(termsVersions);
  return Number(row?.v ?? 0);
}

/**
 * Saves a new version: the number is the highest so far plus one, computed in the same statement; the unique
 * index on `version` makes a concurrent save of the same number fail (the caller retries).
 */
export async function insertVersion(db: Db, values: { language: string; content: string; createdBy: string }): Promise<TermsVersionRow> {
  const [row] = await db
    .insert(termsVersions)
    .values({ ...values, version: sql`(select coalesce(max(${termsVersions.version}), 0) + 1 from ${termsVersions})` })
    .returning();
  return row;
}

/** The highest version the user accepted; 0 when none is recorded (the built-in text). */
export async function acceptedVersion(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ v: sql<number>`coalesce(max(${termsAcceptances.version}), 0)::int` })
    .from(termsAcceptances)
    .where(eq(termsAcceptances.userId, userId));
  return Number(row?.v ?? 0);
}

export async function recordAcceptance(db: Db, userId: string, version: number): Promise<void> {
  await db.insert(termsAcceptances).values({ userId, version }).onConflictDoNothing();
}
