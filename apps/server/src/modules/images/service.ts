import { randomUUID } from 'node:crypto';
import type { Ctx } from '../../app.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { images } from '../../platform/db/schema/index.ts';
import { ingestImage, type IngestedImage } from './ingest.ts';
import { findImage, type ImageRow } from './repo.ts';

export const renditionKey = (image: Pick<ImageRow, 'filename'>, kind: 'thumbnail' | 'display') =>
  image.filename.replace(/\/original$/, `/${kind}.webp`);

/**
 * Stores a batch of uploads all-or-nothing: every file is checked first; then originals and renditions are
 * written and the rows inserted in one transaction; on any failure the written files are removed.
 */
export async function storeUploads(
  ctx: Ctx,
  ownerId: string,
  files: Array<{ filename: string; data: Buffer }>,
  allowedTrainingUse: boolean,
): Promise<ImageRow[]> {
  if (!files.length) throw new AppError(400, 'FILE_MISSING', 'errors.noFiles', {}, [{ field: 'files', key: 'errors.noFiles' }]);
  const ingested: IngestedImage[] = [];
  for (const f of files) ingested.push(await ingestImage(f.filename, f.data));
  const written: string[] = [];
  try {
    const rows = ingested.map((img) => {
      const id = randomUUID();
      const base = `images/${ownerId}/${id}`;
      return { img, id, base };
    });
    for (const { img, base } of rows) {
      for (const [key, data] of [
        [`${base}/original`, img.original],
        [`${base}/thumbnail.webp`, img.thumbnail],
        [`${base}/display.webp`, img.display],
      ] as const) {
        await ctx.storage.put(key, data);
        written.push(key);
      }
    }
    return await ctx.db
      .insert(images)
      .values(
        rows.map(({ img, id, base }) => ({
          id,
          ownerId,
          orginalFilename: img.orginalFilename,
          filename: `${base}/original`,
          sha256: img.sha256,
          format: img.format,
          width: img.width,
          height: img.height,
          bitDepth: img.bitDepth,
          size: img.size,
          allowedTrainingUse,
        })),
      )
      .returning();
  } catch (err) {
    await Promise.all(written.map((k) => ctx.storage.delete(k)));
    throw err;
  }
}

/** The image if the caller owns it (or is ADMIN); otherwise 404, never 403, so ids reveal nothing. */
export async function readableImage(ctx: Ctx, auth: AuthContext, id: string): Promise<ImageRow> {
  const image = await findImage(ctx.db, id);
  if (!image || (image.ownerId !== auth.user.id && auth.user.role !== 'ADMIN') || (image.isDeleted && auth.user.role !== 'ADMIN'))
    throw notFound('image');
  return image;
}
