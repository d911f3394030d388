import { and, count, desc, eq, sql } from 'drizzle-orm';
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

/**
 * The one account that holds the jobs of deleted users (issue 26 item 3: their jobs stay in the statistics,
 * anonymised). BLOCKED, no password that can match, not listed in the back-office users list.
 */
export const DELETED_USER_ID = 'ffffffff-0000-4000-8000-00000000dead';

async function ensureDeletedUser(db: Db): Promise<void> {
  await db
    .insert(users)
    .values({
      id: DELETED_USER_ID,
      email: 'deleted-user@lamella.invalid',
      passwordHash: '!',
      name: 'Deleted user',
      surname: '',
      role: 'BLOCKED',
      blockedByAdmin: true,
    })
    .onConflictDoNothing();
}

/**
 * Deletes an account, keeping its jobs anonymised for the statistics: the jobs (and the image rows they need,
 * marked deleted) move to DELETED_USER_ID without project or customization; results no other user's job shares
 * are deleted; everything else the user owns goes by the database's cascades. Answers the deleted row and the
 * stored keys (prefixes of the user's folders and result files) to remove once the transaction has committed.
 */
export async function deleteUserKeepingJobs(db: Db, id: string): Promise<{ user: UserRow | undefined; resultKeys: string[] }> {
  await ensureDeletedUser(db);
  const unshared = sql`(select j.result_id from jobs j where j.owner_id = ${id} and j.result_id is not null
      and not exists (select 1 from jobs o where o.result_id = j.result_id and o.owner_id <> ${id}))`;
  const keys = (await db.execute(
    sql`select f.value as "key" from results r cross join lateral jsonb_each_text(r.files) f where r.id in ${unshared}`,
  )) as unknown as { rows: Array<{ key: string }> };
  const gone = (await db.execute(
    sql`select distinct result_id as "id" from jobs where owner_id = ${id} and result_id in ${unshared}`,
  )) as unknown as {
    rows: Array<{ id: string }>;
  };
  const resultIds = gone.rows.map((r) => r.id);
  await db.execute(sql`update jobs set result_id = null where owner_id = ${id} and result_id is not null and result_id in ${unshared}`);
  if (resultIds.length)
    await db.execute(
      sql`delete from results where id in (${sql.join(
        resultIds.map((r) => sql`${r}::uuid`),
        sql`, `,
      )})`,
    );
  await db.execute(sql`update images set owner_id = ${DELETED_USER_ID}, is_deleted = true, deleted_at = coalesce(deleted_at, now()),
      orginal_filename = '', pixel_size_um = null, allowed_training_use = false
    where owner_id = ${id} and id in (select image_id from jobs where owner_id = ${id})`);
  await db.execute(
    sql`update jobs set owner_id = ${DELETED_USER_ID}, project_id = null, customization_id = null, mask_id = null where owner_id = ${id}`,
  );
  const [user] = await db.delete(users).where(eq(users.id, id)).returning();
  return { user, resultKeys: keys.rows.map((r) => r.key) };
}
