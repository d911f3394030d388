import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import { images, jobs, masks } from '../../platform/db/schema/index.ts';
import { sniffImage } from '../users/service.ts';
import { lockJob, refreshJobAggregates } from '../admin/jobs-repo.ts';

const tags = ['masks'];
const STAFF = ['ADMIN', 'POWER_USER', 'EDITOR'];
const canEditFor = (auth: AuthContext, ownerId: string) => auth.user.id === ownerId || STAFF.includes(auth.user.role);

/**
 * User masks: a label image (PNG or JPEG by content, the image's size) that replaces a model's own
 * segmentation on a re-run. The job's owner and the staff roles of the mask editor may save them.
 */
export async function masksRoutes(app: App, ctx: Ctx): Promise<void> {
  app.post('/masks', { config: { auth: 'user' }, schema: { tags, consumes: ['multipart/form-data'] } }, async (request) => {
    const auth = requireAuth(request);
    let data: Buffer | null = null;
    const f: Record<string, string> = {};
    for await (const part of request.parts({ limits: { fileSize: 100 * 1024 * 1024 } })) {
      if (part.type === 'file') {
        if (part.fieldname === 'files' && !data) data = await part.toBuffer();
        else part.file.resume();
      } else f[part.fieldname] = String(part.value);
    }
    const problems = [];
    if (!data) problems.push({ field: 'files', key: 'errors.noFiles' });
    if (!f.jobId || !/^[0-9a-f-]{36}$/i.test(f.jobId)) problems.push({ field: 'jobId', key: 'validation.required' });
    if (problems.length) throw validationFailed(problems);
    const [job] = await ctx.db.select().from(jobs).where(eq(jobs.id, f.jobId));
    if (!job || job.deleted || !canEditFor(auth, job.ownerId)) throw notFound('job');
    const [image] = await ctx.db.select().from(images).where(eq(images.id, job.imageId));
    const format = sniffImage(data!);
    if (format !== 'png' && format !== 'jpeg')
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'errors.unsupportedImage', {}, [{ field: 'files', key: 'errors.unsupportedImage' }]);
    let png: Buffer;
    try {
      const meta = await sharp(data!).metadata();
      if (meta.width !== image.width || meta.height !== image.height) throw new Error('size');
      png = await sharp(data!).png().toBuffer();
    } catch {
      throw new AppError(400, 'MASK_INVALID', 'errors.maskInvalid', {}, [{ field: 'files', key: 'errors.maskInvalid' }]);
    }
    const id = randomUUID();
    const key = `masks/${job.ownerId}/${id}.png`;
    await ctx.storage.put(key, png);
    // The job's submitted_masks (the admin jobs list sorts on it) follows in the same transaction.
    const row = await ctx.db
      .transaction(async (tx) => {
        if (!(await lockJob(tx, job.id))) throw notFound('job');
        const [m] = await tx
          .insert(masks)
          .values({
            id,
            ownerId: job.ownerId,
            jobId: job.id,
            imageId: job.imageId,
            parentId: f.parentId && /^[0-9a-f-]{36}$/i.test(f.parentId) ? f.parentId : null,
            label: (f.label ?? 'mask').slice(0, 200),
            filename: `${id}.png`,
            storageKey: key,
            isSubmitted: true,
          })
          .returning();
        if (m.isSubmitted) await refreshJobAggregates(tx, job.id, ['submittedMasks']);
        return m;
      })
      .catch(async (err) => {
        await ctx.storage.delete(key);
        throw err;
      });
    // the owner's open results pages refresh their jobs (the job now lists the mask: Re-run with masks)
    ctx.realtime.emitToUser(job.ownerId, 'job', { id: job.id, status: job.status });
    return { id: row.id, label: row.label, filename: row.filename, parentId: row.parentId, isSubmitted: row.isSubmitted, jobId: row.jobId };
  });

  app.get('/masks/:id/image', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request, reply) => {
    const auth = requireAuth(request);
    const [mask] = await ctx.db.select().from(masks).where(eq(masks.id, request.params.id));
    if (!mask || !canEditFor(auth, mask.ownerId)) throw notFound('mask');
    reply.header('cache-control', 'private, max-age=86400, immutable').type('image/png');
    return reply.send(ctx.storage.stream(mask.storageKey));
  });
  void Type;
}
