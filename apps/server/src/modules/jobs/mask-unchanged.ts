import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db } from '../../platform/db/client.ts';
import { results } from '../../platform/db/schema/index.ts';
import type { Storage } from '../../platform/storage/storage.ts';

/** The model's own segmentation file (packages/analysis common.ts SEGMENTATION_FILE), the correction tools' start. */
export const SEGMENTATION_FILE = 'segmentation.png';

/** Pixel i of a decoded image is "object" (any channel of its first three above 0). */
async function objectPixels(png: Buffer): Promise<{ width: number; height: number; on: Uint8Array }> {
  const { data, info } = await sharp(png, { limitInputPixels: 400_000_000 }).raw().toBuffer({ resolveWithObject: true });
  const n = info.width * info.height;
  const on = new Uint8Array(n);
  const c = info.channels;
  for (let i = 0; i < n; i++) on[i] = data[i * c] || (c > 2 && (data[i * c + 1] || data[i * c + 2])) ? 1 : 0;
  return { width: info.width, height: info.height, on };
}

/**
 * Issue 24 item 3: a user's mask that is the job's own segmentation, unchanged, is no correction. Re-running with it
 * runs the model's own segmentation, so the numbers are exactly the model's (measuring the file as a mask reads
 * grains kept 1 px apart and moved G_I by about 0.1). True when the mask and the result's segmentation.png mark the
 * same pixels; false when the job has no such file, or either cannot be read.
 */
export async function maskIsModelSegmentation(db: Db, storage: Storage, resultId: string | null, maskKey: string): Promise<boolean> {
  if (!resultId) return false;
  const [r] = await db.select({ files: results.files }).from(results).where(eq(results.id, resultId)).limit(1);
  const key = r && Object.hasOwn(r.files, SEGMENTATION_FILE) ? r.files[SEGMENTATION_FILE] : null;
  if (!key) return false;
  try {
    const [a, b] = await Promise.all([storage.get(key).then(objectPixels), storage.get(maskKey).then(objectPixels)]);
    if (a.width !== b.width || a.height !== b.height) return false;
    for (let i = 0; i < a.on.length; i++) if (a.on[i] !== b.on[i]) return false;
    return true;
  } catch {
    return false;
  }
}
