import { eq } from 'drizzle-orm';
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
