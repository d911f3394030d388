import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { images, users } from '../../platform/db/schema/index.ts';
import { isTrainableImage } from '../training-runs/trainable.ts';

/**
 * The SQL of the back-office images screen: a read-only report over the images module's `images` table joined
 * with its owners (it never writes; thumbnails and files stay the images module's).
 */

export interface ImageFilter {
  userId?: string;
  from?: Date;
  /** Exclusive upper bound. */
  before?: Date;
  allowedTrainingUse?: boolean;
  isDeleted?: boolean;
  /** Trainable images (issue 25: training-runs/trainable.ts), of `trainingModelId` when given, or the others. */
  trainable?: boolean;
  trainingModelId?: string;
}

export interface PageSpec {
  sortKey: 'createdAt' | 'owner';
  sortOrder: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const listColumns = {
  id: images.id,
  orginalFilename: images.orginalFilename,
  format: images.format,
  width: images.width,
  height: images.height,
  size: images.size,
  allowedTrainingUse: images.allowedTrainingUse,
  isDeleted: images.isDeleted,
  deletedAt: images.deletedAt,
  createdAt: images.createdAt,
  ownerId: users.id,
  ownerName: users.name,
  ownerSurname: users.surname,
  ownerEmail: users.email,
};

function whereOf(f: ImageFilter): SQL | undefined {
  const conds: (SQL | undefined)[] = [];
  if (f.userId) conds.push(eq(images.ownerId, f.userId));
  if (f.from) conds.push(gte(images.createdAt, f.from));
  if (f.before) conds.push(lt(images.createdAt, f.before));
  if (f.allowedTrainingUse !== undefined) conds.push(eq(images.allowedTrainingUse, f.allowedTrainingUse));
  if (f.isDeleted !== undefined) conds.push(eq(images.isDeleted, f.isDeleted));
  if (f.trainable !== undefined || f.trainingModelId) {
    const trainable = isTrainableImage(sql`${images.id}`, f.trainingModelId);
    conds.push(f.trainable === false ? sql`not ${trainable}` : trainable);
  }
  return conds.length ? and(...conds) : undefined;
}

export type ListRow = Awaited<ReturnType<typeof page>>[number];

/** One page of images with their owners; ties (same owner, same time) are broken by id so pages never overlap. */
export function page(db: Db, f: ImageFilter, p: PageSpec) {
  const dir = p.sortOrder === 'asc' ? asc : desc;
  const order =
    p.sortKey === 'owner'
      ? [dir(sql`lower(${users.surname})`), dir(sql`lower(${users.name})`), dir(users.email), desc(images.createdAt), desc(images.id)]
      : [dir(images.createdAt), dir(images.id)];
  return db
    .select(listColumns)
    .from(images)
    .innerJoin(users, eq(users.id, images.ownerId))
    .where(whereOf(f))
    .orderBy(...order)
    .limit(p.limit)
    .offset(p.offset);
}

/** How many images the filters select (the list's `x-total-count`). */
export async function count(db: Db, f: ImageFilter): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(images)
    .where(whereOf(f));
  return row?.n ?? 0;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Users who own at least one image, matching `search` in name, surname or e-mail, by name. */
export function owners(db: Db, search: string | undefined, limit: number) {
  const like = search ? `%${escapeLike(search)}%` : undefined;
  return db
    .select({ id: users.id, name: users.name, surname: users.surname, email: users.email })
    .from(users)
    .where(
      and(
        sql`exists (select 1 from ${images} where ${images.ownerId} = ${users.id})`,
        like ? or(ilike(users.name, like), ilike(users.surname, like), ilike(users.email, like)) : undefined,
      ),
    )
    .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`), asc(users.email))
    .limit(limit);
}

const reportColumns = {
  ...listColumns,
  bitDepth: images.bitDepth,
  sha256: images.sha256,
  validated: images.validated,
  pixelSizeUm: images.pixelSizeUm,
  /** Microsecond text of created_at: the keyset position (a JS Date keeps only milliseconds). */
  at: sql<string>`to_char(${images.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
};
export type ReportRow = Awaited<ReturnType<typeof reportBatch>>[number];

function reportBatch(db: Db, after: { at: string; id: string } | null, limit: number) {
  return db
    .select(reportColumns)
    .from(images)
    .innerJoin(users, eq(users.id, images.ownerId))
    .where(after ? sql`(${images.createdAt}, ${images.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined)
    .orderBy(desc(images.createdAt), desc(images.id))
    .limit(limit);
}

/**
 * Every image with its owner, newest first, in batches read by keyset on (created_at, id): constant memory
 * however many images there are, and no transaction held open between batches.
 */
export async function* reportBatches(db: Db, batchSize = 1000): AsyncGenerator<ReportRow[]> {
  let after: { at: string; id: string } | null = null;
  for (;;) {
    const batch = await reportBatch(db, after, batchSize);
    if (!batch.length) return;
    yield batch;
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1];
    after = { at: last.at, id: last.id };
  }
}
