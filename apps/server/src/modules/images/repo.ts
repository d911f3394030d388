import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images, storageQuotas } from '../../platform/db/schema/index.ts';

export type ImageRow = typeof images.$inferSelect;
export type NewImageRow = typeof images.$inferInsert;
export type StorageQuotaRow = typeof storageQuotas.$inferSelect;
export type LicenseType = StorageQuotaRow['licenseType'];

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

/** Sets the calibration of an owner's (not deleted) image; undefined: no such image of theirs. */
export async function setPixelSize(db: Db, ownerId: string, id: string, pixelSizeUm: number | null): Promise<ImageRow | undefined> {
  const [row] = await db
    .update(images)
    .set({ pixelSizeUm })
    .where(and(eq(images.id, id), eq(images.ownerId, ownerId), eq(images.isDeleted, false)))
    .returning();
  return row;
}

export async function insertImages(db: Db, rows: NewImageRow[]): Promise<ImageRow[]> {
  return db.insert(images).values(rows).returning();
}

/** Serialises one owner's uploads until the transaction ends, so two uploads cannot both pass the quota. */
export async function lockOwnerUploads(tx: Db, ownerId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'uploads:' + ownerId}))`);
}

export async function listQuotas(db: Db): Promise<StorageQuotaRow[]> {
  return db.select().from(storageQuotas);
}

export async function findQuota(db: Db, licenseType: LicenseType): Promise<number | null> {
  const [row] = await db.select({ quotaMb: storageQuotas.quotaMb }).from(storageQuotas).where(eq(storageQuotas.licenseType, licenseType));
  return row?.quotaMb ?? null;
}

export async function upsertQuota(db: Db, licenseType: LicenseType, quotaMb: number | null): Promise<void> {
  await db
    .insert(storageQuotas)
    .values({ licenseType, quotaMb })
    .onConflictDoUpdate({ target: storageQuotas.licenseType, set: { quotaMb, updatedAt: new Date() } });
}
