import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { settings } from '../../platform/db/schema/index.ts';

/** Demo license settings (back-office Settings → Demo license); durations in days. */
export interface DemoLicenseSettings {
  maxImages: number;
  demoDuration: number;
  extensionDuration: number;
  reminderBeforeExpiry: number;
  reminderBeforeExtensionExpiry: number;
}

export const defaultDemoLicense: DemoLicenseSettings = {
  maxImages: 20,
  demoDuration: 30,
  /** The training-consent promise: 2 extra trial months. */
  extensionDuration: 60,
  reminderBeforeExpiry: 7,
  reminderBeforeExtensionExpiry: 7,
};

export async function getSetting<T>(db: Db, key: string, fallback: T): Promise<T> {
  const [row] = await db.select().from(settings).where(eq(settings.key, key)).limit(1);
  return row ? (row.value as T) : fallback;
}

export async function putSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value, updatedAt: new Date() })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

export const getDemoLicense = (db: Db) => getSetting(db, 'demoLicense', defaultDemoLicense);
