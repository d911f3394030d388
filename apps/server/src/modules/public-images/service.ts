import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { translate, type Language } from '@lamella/i18n';
import { PUBLIC_IMAGE_FILENAME, PUBLIC_IMAGE_MAX_BYTES, type PublicImage, type PublicImageDeleted } from '@lamella/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { fileHead, receiveMultipart, uploadsDir, type ReceivedFile } from '../../platform/storage/upload.ts';
import { recordAudit } from '../audit/service.ts';
import { sniffImage } from '../users/service.ts';
import * as repo from './repo.ts';
import { imageHeader } from '../images/decode.ts';

export interface PublicImagesDeps {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'dataDir'>;
}

/** At most this many files per upload request. */
const MAX_FILES = 20;
const KINDS = { png: { ext: 'png', contentType: 'image/png' }, jpeg: { ext: 'jpg', contentType: 'image/jpeg' } } as const;
const FILENAME = new RegExp(PUBLIC_IMAGE_FILENAME);

export const storageKeyOf = (filename: string) => `public/${filename}`;
export const urlOf = (filename: string) => `/image/public/${filename}`;

const present = (r: repo.PublicImageRow): PublicImage => ({
  filename: r.filename,
  url: urlOf(r.filename),
  orginalFilename: r.orginalFilename,
  contentType: r.contentType,
  size: r.size,
  width: r.width,
  height: r.height,
  createdAt: r.createdAt.toISOString(),
});

export async function list(db: Db): Promise<PublicImage[]> {
  return (await repo.listAll(db)).map(present);
}

const noFiles = () => new AppError(400, 'FILE_MISSING', 'errors.noFiles', {}, [{ field: 'files', key: 'errors.noFiles' }]);
const notPngOrJpeg = (file: string) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'adminImages.errors.pngOrJpegOnly', { file }, [
    { field: 'files', key: 'adminImages.errors.pngOrJpegOnly', vars: { file } },
  ]);
const unreadable = (file: string) =>
  new AppError(400, 'INVALID_IMAGE', 'adminImages.errors.unreadable', { file }, [
    { field: 'files', key: 'adminImages.errors.unreadable', vars: { file } },
  ]);

/** PNG or JPEG by content: the magic bytes of the file's head, then libvips must read it as that format. */
async function checkKind(file: ReceivedFile): Promise<{ ext: string; contentType: string; width: number; height: number }> {
  const sniffed = sniffImage(await fileHead(file.path));
  if (sniffed !== 'png' && sniffed !== 'jpeg') throw notPngOrJpeg(file.filename);
  let meta: { format: string | null; width: number; height: number };
  try {
    // the header is read in the image decode pool (issue 28 item 2), never in the server's process
    meta = await imageHeader(file.path);
  } catch {
    throw unreadable(file.filename);
  }
  if (meta.format !== sniffed || !meta.width || !meta.height) throw unreadable(file.filename);
  return { ...KINDS[sniffed], width: meta.width, height: meta.height };
}

/** A new stored name: the uploaded name as lower-case words joined by dashes, and a random part (never reused). */
export function publicFilename(original: string, ext: string): string {
  const base = original
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const name = `${base || 'image'}-${randomBytes(4).toString('hex')}.${ext}`;
  if (!FILENAME.test(name)) throw new Error(`bad public image name ${name}`);
  return name;
}

/**
 * Stores the uploaded files (multipart field `files`, at most PUBLIC_IMAGE_MAX_BYTES each), all or nothing: every
 * file is checked by content first (415 naming the file for anything but PNG or JPEG), then the files are stored
 * and only then listed (rows inserted in one transaction with the audit entry), so the library never shows a
 * half-written file. On failure the stored files are removed.
 */
export async function upload(deps: PublicImagesDeps, request: FastifyRequest, actorId: string): Promise<PublicImage[]> {
  if (!request.isMultipart()) throw noFiles();
  const { files, dispose } = await receiveMultipart(request, {
    tmpRoot: uploadsDir(deps.config.dataDir),
    fileField: 'files',
    maxFiles: MAX_FILES,
    limits: { fileBytes: PUBLIC_IMAGE_MAX_BYTES, requestBytes: PUBLIC_IMAGE_MAX_BYTES * MAX_FILES, remainingQuotaBytes: null, quotaBytes: null },
  });
  const written: string[] = [];
  try {
    if (!files.length) throw noFiles();
    const planned: Array<repo.NewPublicImage & { file: ReceivedFile }> = [];
    for (const file of files) {
      const kind = await checkKind(file);
      const filename = publicFilename(file.filename, kind.ext);
      planned.push({
        file,
        filename,
        storageKey: storageKeyOf(filename),
        contentType: kind.contentType,
        orginalFilename: file.filename,
        size: file.size,
        width: kind.width,
        height: kind.height,
        uploadedBy: actorId,
      });
    }
    for (const p of planned) {
      await deps.storage.putFile(p.storageKey, p.file.path, { move: true });
      written.push(p.storageKey);
    }
    const rows = await repo.inTransaction(deps.db, async (tx) => {
      const inserted = await repo.insert(
        tx,
        planned.map(({ file: _file, ...row }) => row),
      );
      for (const p of planned)
        await recordAudit(tx, {
          actorId,
          action: 'public_image.upload',
          targetType: 'public_image',
          targetId: p.filename,
          details: { orginalFilename: p.file.filename, size: p.file.size },
        });
      return inserted;
    });
    return rows.map(present);
  } catch (err) {
    await Promise.all(written.map((k) => deps.storage.delete(k)));
    throw err;
  } finally {
    await dispose();
  }
}

/** Removes an image from the library (unlisted first, then the file); an unknown name answers 404. */
export async function remove(deps: PublicImagesDeps, actorId: string, filename: string, lng: Language): Promise<PublicImageDeleted> {
  const row = await repo.inTransaction(deps.db, async (tx) => {
    const r = await repo.remove(tx, filename);
    if (!r) throw notFound('image');
    await recordAudit(tx, { actorId, action: 'public_image.delete', targetType: 'public_image', targetId: filename });
    return r;
  });
  await deps.storage.delete(row.storageKey);
  return { filename, deleted: true, message: translate(lng, 'adminImages.public.deleted') };
}

/** The stored file of a listed image (for everyone), or 404. The name was checked by the route's schema. */
export async function readable(db: Db, filename: string): Promise<{ storageKey: string; contentType: string }> {
  const row = FILENAME.test(filename) ? await repo.find(db, filename) : undefined;
  if (!row) throw notFound('image');
  return { storageKey: row.storageKey, contentType: row.contentType };
}
