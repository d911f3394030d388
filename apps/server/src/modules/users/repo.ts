import { and, eq, desc } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { groups, licenses, users } from '../../platform/db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normalizeEmail(email)))
    .limit(1);
  return row;
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

export async function updateUser(db: Db, id: string, values: Partial<NewUser>): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function findGroupName(db: Db, groupId: string | null): Promise<string | null> {
  if (!groupId) return null;
  const [row] = await db.select({ name: groups.name }).from(groups).where(eq(groups.id, groupId)).limit(1);
  return row?.name ?? null;
}

export async function findActiveLicense(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(licenses)
    .where(and(eq(licenses.userId, userId), eq(licenses.active, true)))
    .orderBy(desc(licenses.createdAt))
    .limit(1);
  return row;
}
