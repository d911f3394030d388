import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images, jobs, licenses, npsResponses, users } from '../../platform/db/schema/index.ts';

export const userSortColumns = {
  fullName: sql`lower(${users.name} || ' ' || ${users.surname})`,
  email: users.email,
  company: sql`lower(${users.address}->>'company')`,
  role: users.role,
  timeJoined: users.createdAt,
  lastLogin: users.lastLoginAt,
} as const;

/** The customer list of back-office §3 with license, NPS, tags and the number of uploaded images. */
export async function listCustomers(
  db: Db,
  opts: { filter?: string; sortKey?: keyof typeof userSortColumns; sortOrder?: 'asc' | 'desc'; limit: number },
) {
  const term = opts.filter?.trim();
  const where = term
    ? or(
        ilike(users.email, `%${term}%`),
        ilike(sql`${users.name} || ' ' || ${users.surname}`, `%${term}%`),
        ilike(sql`${users.address}->>'company'`, `%${term}%`),
        sql`${users.id}::text = ${term}`,
      )
    : undefined;
  const column = userSortColumns[opts.sortKey ?? 'timeJoined'];
  const rows = await db
    .select({
      u: users,
      uploaded: sql<number>`(select count(*) from ${images} where ${images.ownerId} = ${users.id})`.mapWith(Number),
    })
    .from(users)
    .where(where)
    .orderBy(opts.sortOrder === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`)
    .limit(opts.limit);
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
  return rows.map(({ u, uploaded }) => {
    const license = lics.find((l) => l.userId === u.id);
    return {
      id: u.id,
      fullName: `${u.name} ${u.surname}`.trim(),
      company: u.address?.company ?? '',
      email: u.email,
      phone: u.address?.phone ?? '',
      role: u.role,
      trainingConsent: u.trainingConsent,
      license: license
        ? {
            type: license.type,
            limits: { images: license.images, used: license.used, finish: license.finishAt?.toISOString() ?? null },
            createdBy: license.createdBy,
          }
        : null,
      timeJoined: u.createdAt.toISOString(),
      lastLogin: u.lastLoginAt?.toISOString() ?? null,
      nps: nps.filter((n) => n.userId === u.id).map((n) => n.score),
      tags: { verified: u.emailVerified, removeDataPermanently: u.removeDataPermanently },
      uploaded,
    };
  });
}

export async function jobStats(db: Db, userId: string) {
  const rows = await db.select({ status: jobs.status, n: count() }).from(jobs).where(eq(jobs.ownerId, userId)).groupBy(jobs.status);
  const out: Record<string, number> = { NEW: 0, PENDING: 0, FINISHED: 0, CACHED: 0, FAILED: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}
