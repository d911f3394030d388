import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images } from '../../platform/db/schema/index.ts';

/** The SQL of the image library (library-service.ts): the owner's images, paged and filtered, and soft delete. */
export type LibraryRow = typeof images.$inferSelect;

export interface LibraryFilter {
  ownerId: string;
  search?: string;
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
  /** Only these ids (a project's images); an empty list matches nothing. */
  ids?: string[];
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function where(f: LibraryFilter): SQL | undefined {
  const conds: (SQL | undefined)[] = [eq(images.ownerId, f.ownerId), eq(images.isDeleted, false)];
  if (f.search) conds.push(ilike(images.orginalFilename, `%${escapeLike(f.search)}%`));
  if (f.from) conds.push(gte(images.createdAt, f.from));
  if (f.before) conds.push(lt(images.createdAt, f.before));
  if (f.ids) conds.push(inArray(images.id, f.ids));
  return and(...conds);
}

export async function page(db: Db, f: LibraryFilter, limit: number, offset: number): Promise<{ rows: LibraryRow[]; total: number }> {
  if (f.ids && !f.ids.length) return { rows: [], total: 0 };
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(images).where(where(f)).orderBy(desc(images.createdAt), desc(images.id)).limit(limit).offset(offset),
    db.select({ n: count() }).from(images).where(where(f)),
  ]);
  return { rows, total: Number(n) };
}

/** The ids among `ids` of the owner's images that are not deleted. */
export async function ownLiveIds(db: Db, ownerId: string, ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db
    .select({ id: images.id })
    .from(images)
    .where(and(inArray(images.id, ids), eq(images.ownerId, ownerId), eq(images.isDeleted, false)));
  return rows.map((r) => r.id);
}

/** Not deleted images by id (any owner: the caller checked access through a project). */
export function liveByIds(db: Db, ids: string[]): Promise<LibraryRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(images)
    .where(and(inArray(images.id, ids), eq(images.isDeleted, false)));
}

/** Marks the owner's images deleted; answers the ids changed. */
export async function softDelete(db: Db, ownerId: string, ids: string[]): Promise<string[]> {
  const rows = await db
    .update(images)
    .set({ isDeleted: true, deletedAt: new Date() })
    .where(and(inArray(images.id, ids), eq(images.ownerId, ownerId), eq(images.isDeleted, false)))
    .returning({ id: images.id });
  return rows.map((r) => r.id);
}
