import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { Image, StorageQuota, StorageUsage } from '@lamella/contracts';
import { pixelSizeRule, QuotaLicenseTypes } from '@lamella/contracts';
import type { Config } from '../../config.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordTiming } from '../../platform/http/server-timing.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { recordAudit } from '../audit/service.ts';
import { presentAccount } from '../users/service.ts';
import { ingestImage, type IngestedImage } from './ingest.ts';
import * as repo from './repo.ts';
import { readsAnyJob } from '../../platform/auth/staff.ts';
import { usedBytes as storedBytes } from '../storage-usage/service.ts';
import { quotaExceeded, receiveMultipart, sweepStaleUploads, uploadsDir } from '../../platform/storage/upload.ts';

export type { ImageRow } from './repo.ts';
const MB = 1024 * 1024;

/** What the images module needs: its tables, the file store, and the upload limits (read per request). */
export interface ImagesDeps {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'dataDir' | 'maxUploadMb' | 'maxUploadRequestMb'>;
}

export const present = (i: repo.ImageRow): Image => ({
  id: i.id,
  orginalFilename: i.orginalFilename,
  width: i.width,
  height: i.height,
  format: i.format,
  size: i.size,
  validated: i.validated,
  createdAt: i.createdAt.toISOString(),
  pixelSizeUm: i.pixelSizeUm ?? null,
});

export const renditionKey = (image: Pick<repo.ImageRow, 'filename'>, kind: 'thumbnail' | 'display') =>
  image.filename.replace(/\/original$/, `/${kind}.webp`);

const contentTypes: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', tiff: 'image/tiff' };
export const contentTypeOf = (image: Pick<repo.ImageRow, 'format'>) => contentTypes[image.format] ?? 'application/octet-stream';

export async function sweepUploads(deps: ImagesDeps): Promise<void> {
  await sweepStaleUploads(uploadsDir(deps.config.dataDir));
}

const noFiles = () => new AppError(400, 'FILE_MISSING', 'errors.noFiles', {}, [{ field: 'files', key: 'errors.noFiles' }]);

/**
 * The storage quota of a user: the quota ADMIN set for the licence type of their active licence (staff count
 * as UNLIMITED; a user without a licence as DEMO). Null: no quota.
 */
async function quotaOf(db: Db, user: AuthContext['user']): Promise<{ licenseType: repo.LicenseType | null; quotaBytes: number | null }> {
  const account = await presentAccount(db, user);
  const licenseType = (account.license?.type ?? null) as repo.LicenseType | null;
  const quotaMb = await repo.findQuota(db, licenseType ?? 'DEMO');
  return { licenseType, quotaBytes: quotaMb === null ? null : quotaMb * MB };
}

export async function storageUsage(deps: ImagesDeps, user: AuthContext['user']): Promise<StorageUsage> {
  const [used, quota] = await Promise.all([storedBytes(deps.db, user.id), quotaOf(deps.db, user)]);
  return {
    usedBytes: used,
    quotaBytes: quota.quotaBytes,
    licenseType: quota.licenseType,
    maxFileBytes: Math.floor(deps.config.maxUploadMb * MB),
    maxRequestBytes: Math.floor(deps.config.maxUploadRequestMb * MB),
  };
}

/**
 * An upload, all-or-nothing: the files are streamed to temporary files within the per-file, per-request and
 * quota limits; every file is checked by content; then originals (moved, not copied) and renditions are
 * stored and the rows inserted in one transaction that checks the quota again. On any failure the stored
 * files and the temporary files are removed: nothing half-written stays.
 */
export async function upload(deps: ImagesDeps, request: FastifyRequest, auth: AuthContext): Promise<Image[]> {
  const { db, storage } = deps;
  const owner = auth.user;
  const usage = await storageUsage(deps, owner);
  if (!request.isMultipart()) throw noFiles();
  let phase = performance.now();
  /** Server-Timing of the upload's phases (bench:pipeline): receive, renditions, store. */
  const lap = (name: string) => {
    const now = performance.now();
    recordTiming(request, name, now - phase);
    phase = now;
  };
  const { files, fields, dispose } = await receiveMultipart(request, {
    tmpRoot: uploadsDir(deps.config.dataDir),
    fileField: 'files',
    limits: {
      fileBytes: usage.maxFileBytes,
      requestBytes: usage.maxRequestBytes,
      quotaBytes: usage.quotaBytes,
      remainingQuotaBytes: usage.quotaBytes === null ? null : usage.quotaBytes - usage.usedBytes,
    },
  });
  const written: string[] = [];
  try {
    if (!files.length) throw noFiles();
    const pixelSizeUm = parsePixelSizeField(fields.pixelSizeUm);
    lap('receive');
    const { images: imageFiles, sidecars } = pairSidecars(files);
    // the files of one upload are decoded side by side, as many at once as the decode pool has workers
    const settled = await Promise.allSettled(imageFiles.map((f) => ingestImage(f)));
    const refused = settled.find((r) => r.status === 'rejected');
    if (refused) throw refused.reason; // the first refused file in the upload's order
    const ingested = settled.map((r) => (r as PromiseFulfilledResult<IngestedImage>).value);
    lap('renditions');
    const planned = ingested.map((img) => {
      const id = randomUUID();
      return { img, id, base: `images/${owner.id}/${id}` };
    });
    for (const { img, base } of planned) {
      await storage.putFile(`${base}/original`, img.file.path, { move: true });
      written.push(`${base}/original`);
      for (const [key, data] of [
        [`${base}/thumbnail.webp`, img.thumbnail],
        [`${base}/display.webp`, img.display],
      ] as const) {
        await storage.put(key, data);
        written.push(key);
      }
      const sidecar = sidecars.get(img.file);
      if (sidecar) {
        await storage.put(sidecarKey(`${base}/original`), await readFile(sidecar.path));
        written.push(sidecarKey(`${base}/original`));
      }
    }
    const rows = await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await repo.lockOwnerUploads(t, owner.id);
      // Every stored byte counts (issue 28 item 3): the files just written (originals, renditions, sidecars) are
      // in the count already, so the upload fits when the total stays within the quota.
      if (usage.quotaBytes !== null) {
        const used = await storedBytes(t, owner.id);
        if (used > usage.quotaBytes) throw quotaExceeded(usage.quotaBytes, usage.quotaBytes - usage.usedBytes);
      }
      return repo.insertImages(
        t,
        planned.map(({ img, id, base }) => ({
          id,
          ownerId: owner.id,
          orginalFilename: img.file.filename,
          filename: `${base}/original`,
          sha256: img.file.sha256,
          format: img.format,
          width: img.width,
          height: img.height,
          bitDepth: img.bitDepth,
          size: img.file.size,
          allowedTrainingUse: owner.trainingConsent,
          pixelSizeUm,
        })),
      );
    });
    lap('store');
    return rows.map(present);
  } catch (err) {
    await Promise.all(written.map((k) => storage.delete(k)));
    throw err;
  } finally {
    await dispose();
  }
}

/** Storage key of the sidecar text uploaded with an image (beside its original). */
export const sidecarKey = (originalKey: string) => originalKey.replace(/\/original$/, '/sidecar.txt');

/** A sidecar's largest size: instrument texts are a few kB. */
const SIDECAR_MAX_BYTES = 256 * 1024;

/** The stem a sidecar shares with its image: the name without its extension (and Leica's `.cal` before `.xml`). */
const stemOf = (name: string) => name.replace(/(\.cal)?\.[^./\\]+$/i, '').toLowerCase();
const SIDECAR_NAME = /\.(txt|hdr|xml)$/i;

/**
 * Sidecar texts of an upload: a `.txt`, `.hdr` or `.xml` file with the stem of an image in the same request (JEOL and
 * Hitachi SEM `.txt`, TESCAN `.hdr`, Leica `.cal.xml`). The image's calibration is read from it when its own tags
 * have none. Other files are left to be checked as images.
 */
export function pairSidecars<F extends { filename: string; size: number }>(files: F[]): { images: F[]; sidecars: Map<F, F> } {
  const candidates = files.filter((f) => SIDECAR_NAME.test(f.filename) && f.size <= SIDECAR_MAX_BYTES);
  const images = files.filter((f) => !candidates.includes(f));
  const sidecars = new Map<F, F>();
  const used = new Set<F>();
  for (const img of images) {
    const s = candidates.find((c) => !used.has(c) && stemOf(c.filename) === stemOf(img.filename));
    if (s) {
      sidecars.set(img, s);
      used.add(s);
    }
  }
  // a text file that belongs to no image is checked (and refused) as an image
  return { images: [...images, ...candidates.filter((c) => !used.has(c))], sidecars };
}

/**
 * The upload's `pixelSizeUm` text field (µm per pixel, decimal point or comma); absent or blank: none.
 * Anything else than a number within the limits is a 400 naming the field.
 */
export function parsePixelSizeField(raw: string | undefined): number | null {
  const text = (raw ?? '').trim();
  if (!text) return null;
  const value = /^[0-9]*[.,]?[0-9]+(e[-+]?[0-9]+)?$/i.test(text) ? Number(text.replace(',', '.')) : NaN;
  new FieldErrors().add('pixelSizeUm', pixelSizeRule(value)).throwIfAny();
  return value;
}

/** Sets or clears (null) the calibration of the caller's own image; another user's image answers 404. */
export async function setPixelSize(db: Db, auth: AuthContext, id: string, pixelSizeUm: number | null): Promise<Image> {
  if (pixelSizeUm !== null) new FieldErrors().add('pixelSizeUm', pixelSizeRule(pixelSizeUm)).throwIfAny();
  const row = await repo.setPixelSize(db, auth.user.id, id, pixelSizeUm);
  if (!row) throw notFound('image');
  return present(row);
}

export async function listOwn(db: Db, ownerId: string): Promise<Image[]> {
  return (await repo.listOwnImages(db, ownerId, 500)).map(present);
}

/**
 * The image if the caller owns it, or reviews any job (ADMIN, POWER_USER with JOB.READ, EDITOR: issue 26); otherwise
 * 404, never 403, so ids reveal nothing. Deleted images: ADMIN only.
 */
export async function readableImage(db: Db, auth: AuthContext, id: string): Promise<repo.ImageRow> {
  const image = await repo.findImage(db, id);
  if (!image || (image.ownerId !== auth.user.id && !readsAnyJob(auth)) || (image.isDeleted && auth.user.role !== 'ADMIN')) throw notFound('image');
  return image;
}

export async function listQuotas(db: Db): Promise<StorageQuota[]> {
  const rows = await repo.listQuotas(db);
  return QuotaLicenseTypes.map((licenseType) => ({ licenseType, quotaMb: rows.find((r) => r.licenseType === licenseType)?.quotaMb ?? null }));
}

/** ADMIN sets the storage quota of licence types (audited, in the same transaction). */
export async function setQuotas(db: Db, actorId: string, quotas: StorageQuota[]): Promise<StorageQuota[]> {
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    for (const q of quotas) await repo.upsertQuota(t, q.licenseType, q.quotaMb);
    await recordAudit(t, { actorId, action: 'storage.quota.set', targetType: 'storage_quota', targetId: null, details: { quotas } });
  });
  return listQuotas(db);
}

/** Width and height of an image, for another domain that already checked access (the masks of a job). */
export async function dimensions(db: Db, id: string): Promise<{ width: number; height: number } | null> {
  const image = await repo.findImage(db, id);
  return image ? { width: image.width, height: image.height } : null;
}
