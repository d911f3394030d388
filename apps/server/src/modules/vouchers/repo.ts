import { and, asc, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { licenses, users, vouchers } from '../../platform/db/schema/index.ts';

/** All SQL of the vouchers (and the license a redeemed voucher gives). */
export type VoucherRow = typeof vouchers.$inferSelect;
export const SORT_COLUMNS = { createdAt: vouchers.createdAt, key: vouchers.key, executions: vouchers.executions, validUntil: vouchers.validUntil };

export async function page(db: Db, sortBy: keyof typeof SORT_COLUMNS, order: 'asc' | 'desc', pageNo: number, pageSize: number) {
  const dir = order === 'desc' ? desc : asc;
  const [rows, [total]] = await Promise.all([
    db
      .select({ v: vouchers, name: users.name, surname: users.surname })
      .from(vouchers)
      .leftJoin(users, eq(users.id, vouchers.takenById))
      .orderBy(dir(SORT_COLUMNS[sortBy]), dir(vouchers.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize),
    db.select({ n: count() }).from(vouchers),
  ]);
  return { rows, total: Number(total.n) };
}

export async function insertMany(
  db: Db,
  values: Array<{ key: string; executions: number; validUntil: Date | null; createdById: string }>,
): Promise<VoucherRow[]> {
  return db.insert(vouchers).values(values).returning();
}

export async function remove(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(vouchers).where(eq(vouchers.id, id)).returning({ id: vouchers.id });
  return rows.length > 0;
}

/** Takes a free, unexpired voucher for the user (one conditional update: a key is redeemed once). */
export async function take(tx: Db, key: string, userId: string): Promise<VoucherRow | null> {
  const [voucher] = await tx
    .update(vouchers)
    .set({ takenById: userId, takenAt: new Date() })
    .where(and(eq(vouchers.key, key), isNull(vouchers.takenById), or(isNull(vouchers.validUntil), gt(vouchers.validUntil, new Date()))))
    .returning();
  return voucher ?? null;
}

/** A new IMAGES_LIMITED license (created by VOUCHER) replaces the user's active one. */
export async function replaceLicense(tx: Db, userId: string, images: number, finishAt: Date | null) {
  await tx
    .update(licenses)
    .set({ active: false })
    .where(and(eq(licenses.userId, userId), eq(licenses.active, true)));
  const [license] = await tx.insert(licenses).values({ userId, type: 'IMAGES_LIMITED', createdBy: 'VOUCHER', images, finishAt }).returning();
  return license;
}
