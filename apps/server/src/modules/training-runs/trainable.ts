import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';

/**
 * What a trainable image is (issue 25), in one place: an image counts for a model when its owner gave training
 * consent (users.training_consent), the image is allowed for training and not deleted, and it has a submitted mask
 * (a corrected segmentation) of a job of that model. Read-only SQL over the images, users, jobs and masks tables;
 * the Models table's count (compute-models), the Images screen's Training filter (admin-images) and the training
 * runs' selection (at start and again at dispatch) all use it, so withdrawing consent or deleting the image takes
 * it out of all of them at once.
 */

export interface TrainableFilter {
  userIds?: string[];
  /** Customization groups: their members' images. */
  groupIds?: string[];
  /** Uploaded on or after this instant. */
  from?: Date;
  /** Uploaded before this instant (exclusive). */
  before?: Date;
  imageIds?: string[];
}

export interface TrainableRow {
  id: string;
  orginal_filename: string;
  width: number;
  height: number;
  created_at: Date | string;
  /** Storage key of the original. */
  image_key: string;
  owner_id: string;
  owner_name: string | null;
  owner_surname: string | null;
  owner_email: string;
  mask_id: string;
  job_id: string;
  mask_key: string;
}

const uuidArray = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]::uuid[]`;

/** The WHERE of the trainable images of `modelId` (aliases: i = images, u = users, m = the newest submitted mask). */
function trainableFrom(modelId: string, f: TrainableFilter): SQL {
  const where: SQL[] = [sql`i.allowed_training_use`, sql`not i.is_deleted`, sql`u.training_consent`];
  if (f.userIds?.length) where.push(sql`i.owner_id = any(${uuidArray(f.userIds)})`);
  if (f.groupIds?.length)
    where.push(sql`exists (select 1 from customization_members cm where cm.user_id = i.owner_id and cm.group_id = any(${uuidArray(f.groupIds)}))`);
  if (f.from) where.push(sql`i.created_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.before) where.push(sql`i.created_at < ${f.before.toISOString()}::timestamptz`);
  if (f.imageIds) where.push(f.imageIds.length ? sql`i.id = any(${uuidArray(f.imageIds)})` : sql`false`);
  return sql`from images i
    join users u on u.id = i.owner_id
    join lateral (
      select tm.id, tm.job_id, tm.storage_key from masks tm join jobs tj on tj.id = tm.job_id
      where tj.image_id = i.id and tj.model_id = ${modelId}::uuid and tm.is_submitted
      order by tm.created_at desc limit 1
    ) m on true
    where ${sql.join(where, sql` and `)}`;
}

async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The trainable images of a model (newest upload first), one page or all (`limit` null). */
export function trainableImages(
  db: Db,
  modelId: string,
  f: TrainableFilter,
  page: { limit: number | null; offset: number },
): Promise<TrainableRow[]> {
  return rows<TrainableRow>(
    db,
    sql`select i.id, i.orginal_filename, i.width, i.height, i.created_at, i.filename as image_key,
        u.id as owner_id, u.name as owner_name, u.surname as owner_surname, u.email as owner_email,
        m.id as mask_id, m.job_id, m.storage_key as mask_key
      ${trainableFrom(modelId, f)}
      order by i.created_at desc, i.id
      ${page.limit === null ? sql`` : sql`limit ${page.limit} offset ${page.offset}`}`,
  );
}

export async function countTrainable(db: Db, modelId: string, f: TrainableFilter): Promise<number> {
  const [r] = await rows<{ n: string | number }>(db, sql`select count(*) as n ${trainableFrom(modelId, f)}`);
  return Number(r?.n ?? 0);
}

/** Trainable images per model (the Models table's "trainable images count"). */
export function trainableCounts(db: Db): Promise<Array<{ model_id: string; n: string }>> {
  return rows<{ model_id: string; n: string }>(
    db,
    sql`select j.model_id, count(distinct j.image_id) as n
      from masks m join jobs j on j.id = m.job_id join images i on i.id = j.image_id join users u on u.id = i.owner_id
      where m.is_submitted and i.allowed_training_use and not i.is_deleted and u.training_consent
      group by j.model_id`,
  );
}

/**
 * `images.id` is a trainable image of some model, or of `modelId` when given (the Images screen's Training filter):
 * a condition on the `images` table as the admin-images query names it.
 */
export function isTrainableImage(imageId: SQL, modelId?: string): SQL {
  return sql`(exists (select 1 from users tu where tu.id = (select ti.owner_id from images ti where ti.id = ${imageId}) and tu.training_consent)
    and exists (select 1 from images ti where ti.id = ${imageId} and ti.allowed_training_use and not ti.is_deleted)
    and exists (select 1 from masks tm join jobs tj on tj.id = tm.job_id
      where tj.image_id = ${imageId} and tm.is_submitted ${modelId ? sql`and tj.model_id = ${modelId}::uuid` : sql``}))`;
}
