import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { calibrations } from '../../platform/db/schema/index.ts';

export type CalibrationRow = typeof calibrations.$inferSelect;

export function listForOwner(db: Db, ownerId: string): Promise<CalibrationRow[]> {
  return db.select().from(calibrations).where(eq(calibrations.ownerId, ownerId)).orderBy(asc(calibrations.name), asc(calibrations.createdAt));
}

export async function countForOwner(db: Db, ownerId: string): Promise<number> {
  return (await db.select({ id: calibrations.id }).from(calibrations).where(eq(calibrations.ownerId, ownerId))).length;
}

export async function insert(db: Db, values: { ownerId: string; name: string; pixelSizeUm: number }): Promise<CalibrationRow> {
  const [row] = await db.insert(calibrations).values(values).returning();
  return row;
}

export async function update(
  db: Db,
  ownerId: string,
  id: string,
  values: { name?: string; pixelSizeUm?: number },
): Promise<CalibrationRow | undefined> {
  const [row] = await db
    .update(calibrations)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(calibrations.id, id), eq(calibrations.ownerId, ownerId)))
    .returning();
  return row;
}

export async function remove(db: Db, ownerId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(calibrations)
    .where(and(eq(calibrations.id, id), eq(calibrations.ownerId, ownerId)))
    .returning({ id: calibrations.id });
  return rows.length > 0;
}
