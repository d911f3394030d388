import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { groups, licenses, users } from '../../platform/db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
type NewLicense = typeof licenses.$inferInsert;

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

export async function findAnyAdmin(db: Db): Promise<{ id: string } | undefined> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'ADMIN')).limit(1);
  return row;
}

export async function insertUser(db: Db, values: NewUser): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row;
}

/** A new account and its first license, together. */
export async function insertUserWithLicense(db: Db, values: NewUser, license: Omit<NewLicense, 'userId'>): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values(values).returning();
    await tx.insert(licenses).values({ ...license, userId: user.id });
    return user;
  });
}

export async function updateUser(db: Db, id: string, values: Partial<NewUser>): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function deleteUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.delete(users).where(eq(users.id, id)).returning();
  return row;
}

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return Number(row.n);
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

/**
 * Sets the training consent; `extendDemoByMs` (the first consent) also moves the end of an active DEMO license.
 */
export async function setTrainingConsent(db: Db, userId: string, consent: boolean, grantBonus: boolean, extendDemoByMs: number): Promise<UserRow> {
  return db.transaction(async (tx) => {
    if (grantBonus) {
      const license = await findActiveLicense(tx as never, userId);
      if (license?.type === 'DEMO' && license.finishAt) {
        await tx
          .update(licenses)
          .set({ finishAt: new Date(license.finishAt.getTime() + extendDemoByMs) })
          .where(eq(licenses.id, license.id));
      }
    }
    const [row] = await tx
      .update(users)
      .set({ trainingConsent: consent, ...(grantBonus ? { trainingBonusGrantedAt: new Date() } : {}), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    return row;
  });
}
