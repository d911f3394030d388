import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { settings } from '../../platform/db/schema/index.ts';

export async function findSetting(db: Db, key: string): Promise<{ value: unknown } | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row;
}

export async function upsertSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/** The newest migration applied (drizzle's journal time, ms), or null when none is. */
export async function lastAppliedMigration(db: Db): Promise<number | null> {
  const rows = (await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`)) as unknown as
    { rows: Array<{ last: string | null }> } | Array<{ last: string | null }>;
  const list = Array.isArray(rows) ? rows : rows.rows;
  return list[0]?.last ? Number(list[0].last) : null;
}
