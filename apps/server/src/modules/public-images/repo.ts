import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { publicImages } from '../../platform/db/schema/index.ts';

/** The SQL of the public images library: one row per stored file (table `public_images`). */
export type PublicImageRow = typeof publicImages.$inferSelect;

export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listAll(db: Db): Promise<PublicImageRow[]> {
  return db.select().from(publicImages).orderBy(desc(publicImages.createdAt), desc(publicImages.filename));
}

export async function find(db: Db, filename: string): Promise<PublicImageRow | undefined> {
  const [row] = await db.select().from(publicImages).where(eq(publicImages.filename, filename));
  return row;
}

export type NewPublicImage = Pick<
  PublicImageRow,
  'filename' | 'storageKey' | 'contentType' | 'orginalFilename' | 'size' | 'width' | 'height' | 'uploadedBy'
>;

export function insert(db: Db, rows: NewPublicImage[]): Promise<PublicImageRow[]> {
  return db.insert(publicImages).values(rows).returning();
}

export async function remove(db: Db, filename: string): Promise<PublicImageRow | undefined> {
  const [row] = await db.delete(publicImages).where(eq(publicImages.filename, filename)).returning();
  return row;
}
