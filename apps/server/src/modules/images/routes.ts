import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { MAX_UPLOAD_BYTES } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { AppError } from '../../platform/http/errors.ts';
import { listOwnImages, type ImageRow } from './repo.ts';
import { readableImage, renditionKey, storeUploads } from './service.ts';

const UploadedImage = Type.Object(
  {
    id: Type.String(),
    orginalFilename: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    format: Type.String(),
    size: Type.Integer(),
    validated: Type.Boolean(),
    createdAt: Type.String(),
  },
  { $id: 'Image' },
);
const present = (i: ImageRow) => ({
  id: i.id,
  orginalFilename: i.orginalFilename,
  width: i.width,
  height: i.height,
  format: i.format,
  size: i.size,
  validated: i.validated,
  createdAt: i.createdAt.toISOString(),
});

const contentTypes: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', tiff: 'image/tiff' };
const tags = ['images'];

/** Upload (multipart field `files`), the user's image list, and the image addresses of user-app.md §7. */
export async function imagesRoutes(app: App, ctx: Ctx): Promise<void> {
  app.post(
    '/images',
    { config: { auth: 'user' }, schema: { tags, consumes: ['multipart/form-data'], response: { 200: Type.Array(UploadedImage) } } },
    async (request) => {
      const auth = requireAuth(request);
      if (!request.isMultipart()) throw new AppError(400, 'FILE_MISSING', 'errors.noFiles', {}, [{ field: 'files', key: 'errors.noFiles' }]);
      const files: Array<{ filename: string; data: Buffer }> = [];
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'files') {
          part.file.resume();
          continue;
        }
        const data = await part.toBuffer().catch(() => null);
        if (!data || part.file.truncated)
          throw new AppError(413, 'PAYLOAD_TOO_LARGE', 'errors.fileTooLarge', { max: `${MAX_UPLOAD_BYTES / 1024 / 1024} MB` });
        files.push({ filename: part.filename, data });
      }
      const rows = await storeUploads(ctx, auth.user.id, files, auth.user.trainingConsent);
      return rows.map(present);
    },
  );

  app.get('/image', { config: { auth: 'user' }, schema: { tags, response: { 200: Type.Array(UploadedImage) } } }, async (request) => {
    const rows = await listOwnImages(ctx.db, requireAuth(request).user.id, 500);
    return rows.map(present);
  });

  app.get('/image/:id', { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request, reply) => {
    const image = await readableImage(ctx, requireAuth(request), request.params.id);
    reply.header('cache-control', 'private, max-age=86400, immutable').type(contentTypes[image.format] ?? 'application/octet-stream');
    reply.header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(image.orginalFilename)}`);
    return reply.send(ctx.storage.stream(image.filename));
  });

  for (const kind of ['thumbnail', 'display'] as const) {
    app.get(`/image/:id/${kind}`, { config: { auth: 'user' }, schema: { tags, params: IdParams } }, async (request, reply) => {
      const image = await readableImage(ctx, requireAuth(request), request.params.id);
      reply.header('cache-control', 'private, max-age=86400, immutable').type('image/webp');
      return reply.send(ctx.storage.stream(renditionKey(image, kind)));
    });
  }
}
