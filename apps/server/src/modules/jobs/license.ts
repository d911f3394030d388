import { and, countDistinct, eq, gt, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { jobs, licenses } from '../../platform/db/schema/index.ts';
import { AppError } from '../../platform/http/errors.ts';
import type { UserRow } from '../users/service.ts';

/**
 * A license limits the number of distinct images a user may analyse (DEMO, IMAGES_LIMITED) and/or the time
 * (DEMO, TIME_LIMITED). The license, not the role, sets the limit (issue 24 item 3: making a user EDITOR lifted her
 * limit): whoever has a license row is held to it, whatever the role; only staff (ADMIN, POWER_USER, EDITOR) who never
 * had a license are not limited. Runs inside the job-creation transaction, so the count and the new jobs agree. An
 * image counts when it has a job that did not fail: a job the model refused or that could not be run uses no unit
 * (recountLicense gives it back when it fails).
 *
 * Answers the images that may run (issue 24 item 7: a license accepts as many images as remain): images already
 * counted always, then new ones in the order asked until the license is used up; none left: 403 naming how many
 * remain (0).
 */
export async function chargeLicense(tx: Db, user: UserRow, imageIds: string[]): Promise<string[]> {
  const now = new Date();
  const [license] = await tx
    .select()
    .from(licenses)
    .where(and(eq(licenses.userId, user.id), eq(licenses.active, true), or(isNull(licenses.finishAt), gt(licenses.finishAt, now))))
    .orderBy(sql`${licenses.createdAt} desc`)
    .limit(1)
    .for('update');
  if (!license) {
    const [expired] = await tx.select({ id: licenses.id }).from(licenses).where(eq(licenses.userId, user.id)).limit(1);
    if (!expired && user.role !== 'USER') return imageIds;
    throw new AppError(403, 'LICENSE_LIMIT_EXCEEDED', expired ? 'errors.licenseExpired' : 'errors.noLicense');
  }
  if (license.images === null) return imageIds;
  const seenRows = imageIds.length
    ? await tx
        .selectDistinct({ imageId: jobs.imageId })
        .from(jobs)
        .where(and(eq(jobs.ownerId, user.id), ne(jobs.status, 'FAILED'), inArray(jobs.imageId, imageIds)))
    : [];
  const seen = new Set(seenRows.map((r) => r.imageId));
  const used = await usedImages(tx, user.id);
  const remaining = Math.max(0, license.images - used);
  const fresh = imageIds.filter((id) => !seen.has(id));
  if (fresh.length > 0 && remaining === 0)
    throw new AppError(403, 'LICENSE_LIMIT_EXCEEDED', 'errors.licenseLimitExceeded', { remaining: 0, requested: fresh.length });
  const accepted = new Set([...seen, ...fresh.slice(0, remaining)]);
  const total = used + Math.min(fresh.length, remaining);
  await tx.update(licenses).set({ used: total, updatedAt: now }).where(eq(licenses.id, license.id));
  return imageIds.filter((id) => accepted.has(id));
}

/** Distinct images of the user with a job that did not fail. */
async function usedImages(db: Db, userId: string): Promise<number> {
  const [used] = await db
    .select({ n: countDistinct(jobs.imageId) })
    .from(jobs)
    .where(and(eq(jobs.ownerId, userId), ne(jobs.status, 'FAILED')));
  return Number(used.n);
}

/** After a job failed: the active license's `used` counts only images with a job that did not fail. */
export async function recountLicense(db: Db, userId: string): Promise<void> {
  const used = await usedImages(db, userId);
  await db
    .update(licenses)
    .set({ used: sql`least(${licenses.used}, ${used})` })
    .where(and(eq(licenses.userId, userId), eq(licenses.active, true)));
}
