import { and, count, desc, eq, ilike, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobs, licenses, npsResponses, privileges, users } from '../../platform/db/schema/index.ts';
import { DELETED_USER_ID } from '../users/service.ts';

/** All SQL of the back-office user management (users, their privileges and licenses, as staff see them). */

export type UserRow = typeof users.$inferSelect;
export type LicenseRow = typeof licenses.$inferSelect;
export type NewLicense = typeof licenses.$inferInsert;

export const userSortColumns = {
  fullName: sql`lower(${users.name} || ' ' || ${users.surname})`,
  email: users.email,
  company: sql`lower(${users.address}->>'company')`,
  role: users.role,
  timeJoined: users.createdAt,
  lastLogin: users.lastLoginAt,
} as const;
export type UserSortColumn = keyof typeof userSortColumns;

export interface CustomerRow {
  user: UserRow;
  uploaded: number;
  license: LicenseRow | undefined;
  nps: number[];
}

/** The customer list of back-office §3 with the active license, NPS scores and the number of uploaded images. */
/** The users search: name, e-mail, company (LIKE wildcards taken literally), or an exact user id. */
function customerWhere(filter: string | undefined): SQL | undefined {
  const term = filter?.trim();
  // the anonymous holder of deleted users' jobs is nobody's account
  const real = ne(users.id, DELETED_USER_ID);
  if (!term) return real;
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return and(
    real,
    or(
      ilike(users.email, like),
      ilike(sql`${users.name} || ' ' || ${users.surname}`, like),
      ilike(sql`${users.address}->>'company'`, like),
      sql`${users.id}::text = ${term}`,
    ),
  );
}

/** Accounts whose deletion grace period has ended. */
export async function usersDueForDeletion(db: Db, now: Date): Promise<UserRow[]> {
  return db.select().from(users).where(lte(users.deletionDueAt, now)).limit(100);
}

/** How many users the search matches (the `x-total-count` of the list). */
export async function countCustomers(db: Db, filter: string | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(customerWhere(filter));
  return Number(row?.n ?? 0);
}

export async function listCustomers(
  db: Db,
  opts: { filter?: string; sortKey?: UserSortColumn; sortOrder?: 'asc' | 'desc'; limit: number; offset?: number },
): Promise<CustomerRow[]> {
  const where = customerWhere(opts.filter);
  const column = userSortColumns[opts.sortKey ?? 'timeJoined'];
  const rows = await db
    .select({
      u: users,
      // Qualified by hand: inside a one-table select Drizzle renders columns unqualified, so the former
      // `${images.ownerId} = ${users.id}` compared images.owner_id with images.id and counted 0 for everyone.
      uploaded: sql<number>`(select count(*) from "images" i where i.owner_id = "users"."id")`.mapWith(Number),
    })
    .from(users)
    .where(where)
    // The id breaks ties, so that pages neither repeat nor skip users with equal sort values.
    .orderBy(opts.sortOrder === 'asc' ? sql`${column} asc nulls first, ${users.id} asc` : sql`${column} desc nulls last, ${users.id} desc`)
    .limit(opts.limit)
    .offset(opts.offset ?? 0);
  const ids = rows.map((r) => r.u.id);
  const [lics, nps] = ids.length
    ? await Promise.all([
        db
          .select()
          .from(licenses)
          .where(and(eq(licenses.active, true), inArray(licenses.userId, ids)))
          .orderBy(desc(licenses.createdAt)),
        db.select().from(npsResponses).where(inArray(npsResponses.userId, ids)),
      ])
    : [[], []];
  return rows.map(({ u, uploaded }) => ({
    user: u,
    uploaded,
    license: lics.find((l) => l.userId === u.id),
    nps: nps.filter((n) => n.userId === u.id).map((n) => n.score),
  }));
}

export async function jobCountsByStatus(db: Db, userId: string): Promise<Array<{ status: string; n: number }>> {
  const rows = await db.select({ status: jobs.status, n: count() }).from(jobs).where(eq(jobs.ownerId, userId)).groupBy(jobs.status);
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

export async function uploadedCount(db: Db, userId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`select count(*)::int as n from images where owner_id = ${userId}`);
  return Number((rows as unknown as { rows: Array<{ n: number }> }).rows?.[0]?.n ?? 0);
}

/** Every license of the user, newest first. */
export async function licensesOf(db: Db, userId: string): Promise<LicenseRow[]> {
  return db.select().from(licenses).where(eq(licenses.userId, userId)).orderBy(desc(licenses.createdAt));
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function updateUser(db: Db, id: string, values: Partial<typeof users.$inferInsert>): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function countAdminsExcept(db: Db, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.role, 'ADMIN'), ne(users.id, exceptId)));
  return Number(row.n);
}

export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

/** Every POWER_USER with their privileges (one row per privilege, or one with `p` null). */
export async function listPowerUsersWithPrivileges(db: Db) {
  return db
    .select({ id: users.id, name: users.name, surname: users.surname, email: users.email, p: privileges })
    .from(users)
    .leftJoin(privileges, eq(privileges.userId, users.id))
    .where(eq(users.role, 'POWER_USER'))
    .orderBy(users.name, users.surname, users.id, privileges.resource, privileges.action);
}

export async function privilegesOf(db: Db, userId: string): Promise<Array<{ resource: string; action: string }>> {
  return db
    .select({ resource: privileges.resource, action: privileges.action })
    .from(privileges)
    .where(eq(privileges.userId, userId))
    .orderBy(privileges.resource, privileges.action);
}

/** Replaces the user's privileges (call inside a transaction). */
export async function replacePrivileges(db: Db, userId: string, list: Array<{ resource: string; action: string }>): Promise<void> {
  await db.delete(privileges).where(eq(privileges.userId, userId));
  if (list.length) await db.insert(privileges).values(list.map((p) => ({ userId, ...p })));
}

/** Ends the user's active licenses and inserts the new one (call inside a transaction). */
export async function replaceActiveLicense(db: Db, values: NewLicense & { userId: string }): Promise<LicenseRow> {
  await db
    .update(licenses)
    .set({ active: false })
    .where(and(eq(licenses.userId, values.userId), eq(licenses.active, true)));
  const [row] = await db.insert(licenses).values(values).returning();
  return row;
}
