import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { SavedMask } from '@lamella/contracts';
import type { Config } from '../../config.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { hasPermission } from '../../platform/auth/guard.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound, validationFailed } from '../../platform/http/errors.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { fileHead, quotaExceeded, receiveMultipart, uploadsDir } from '../../platform/storage/upload.ts';
import * as adminJobs from '../admin-jobs/service.ts';
import * as images from '../images/service.ts';
import { maskPng } from '../images/decode.ts';
import * as jobs from '../jobs/service.ts';
import { sniffImage } from '../users/service.ts';
import * as repo from './repo.ts';

/** What the masks module needs: its table, the file store, the upload limits, and the owner's live updates. */
export interface MasksDeps {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'dataDir' | 'maxUploadMb' | 'maxUploadRequestMb'>;
  notify: (userId: string, event: string, payload: unknown) => void;
}

const MB = 1024 * 1024;
/** A mask file is a label image of the analysed image's size: 100 MB at most (or MAX_UPLOAD_MB when smaller). */
const MAX_MASK_MB = 100;
/**
 * Masks of other users' jobs follow job access (issue 28 item 9): reading needs JOB.READ, saving JOB.WRITE (ADMIN
 * passes; a POWER_USER needs the privilege). An EDITOR reads and corrects them: back-office.md gives the mask editor
 * to ADMIN, POWER_USER and EDITOR, and editors see every job's images (issue 26 item 2). Users reach their own jobs only.
 */
const mayReadOthers = (auth: AuthContext) => auth.user.role === 'EDITOR' || hasPermission(auth, 'JOB.READ');
const mayWriteOthers = (auth: AuthContext) => auth.user.role === 'EDITOR' || hasPermission(auth, 'JOB.WRITE');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const present = (m: repo.MaskRow): SavedMask => ({
  id: m.id,
  label: m.label,
  filename: m.filename,
  parentId: m.parentId,
  isSubmitted: m.isSubmitted,
  jobId: m.jobId ?? '',
});

/** The job a mask is saved for: the caller's own, or any (not deleted) job for JOB.WRITE; else 404. */
async function editableJob(db: Db, auth: AuthContext, jobId: string): Promise<{ id: string; ownerId: string; imageId: string; status: string }> {
  const own = await jobs.findOwnJob(db, auth.user.id, jobId);
  if (own) return own;
  if (!mayWriteOthers(auth)) throw notFound('job');
  const job = await adminJobs.detail(db, jobId);
  if (job.deleted) throw notFound('job');
  return { id: job.id, ownerId: job.owner.id, imageId: job.image.id, status: job.status };
}

/**
 * User masks: a label image (PNG or JPEG by content, the image's size) that replaces a model's own
 * segmentation on a re-run. The job's owner and JOB.WRITE holders may save them; the mask
 * belongs to the job's owner. The file is streamed to a temporary file; every refusal leaves nothing behind.
 */
export async function save(deps: MasksDeps, request: FastifyRequest, auth: AuthContext): Promise<SavedMask> {
  const { db, storage } = deps;
  if (!request.isMultipart()) throw validationFailed([{ field: 'files', key: 'errors.noFiles' }]);
  const { files, fields, dispose } = await receiveMultipart(request, {
    tmpRoot: uploadsDir(deps.config.dataDir),
    fileField: 'files',
    maxFiles: 1,
    limits: {
      fileBytes: Math.floor(Math.min(MAX_MASK_MB, deps.config.maxUploadMb) * MB),
      requestBytes: Math.floor(deps.config.maxUploadRequestMb * MB),
      quotaBytes: null,
      remainingQuotaBytes: null,
    },
  });
  try {
    const [file] = files;
    const problems = [];
    if (!file) problems.push({ field: 'files', key: 'errors.noFiles' });
    if (!fields.jobId || !UUID.test(fields.jobId)) problems.push({ field: 'jobId', key: 'validation.required' });
    if (problems.length) throw validationFailed(problems);
    const job = await editableJob(db, auth, fields.jobId);
    const image = await images.dimensions(db, job.imageId);
    const format = sniffImage(await fileHead(file.path));
    if (format !== 'png' && format !== 'jpeg')
      throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'errors.unsupportedImage', {}, [{ field: 'files', key: 'errors.unsupportedImage' }]);
    let png: Buffer;
    try {
      // decoded in the image decode pool (issue 28 item 2): never in the server's process, and a mask whose
      // header says it decodes to more than IMAGE_DECODE_MAX_MB is refused unread
      if (!image) throw new Error('size');
      png = await maskPng(file.path, image.width, image.height);
    } catch {
      throw new AppError(400, 'MASK_INVALID', 'errors.maskInvalid', {}, [{ field: 'files', key: 'errors.maskInvalid' }]);
    }
    // a mask counts in its owner's storage (issue 28 item 3): the owner saving beyond the quota is refused
    if (job.ownerId === auth.user.id) {
      const usage = await images.storageUsage(deps, auth.user);
      if (usage.quotaBytes !== null && usage.usedBytes + png.length > usage.quotaBytes)
        throw quotaExceeded(usage.quotaBytes, usage.quotaBytes - usage.usedBytes);
    }
    const id = randomUUID();
    const key = `masks/${job.ownerId}/${id}.png`;
    await storage.put(key, png);
    // The job's submitted_masks (the admin jobs list sorts on it) follows in the same transaction.
    const row = await jobs
      .writeUnderJobLock(db, job.id, ['submittedMasks'], (tx) =>
        repo.insertMask(tx, {
          id,
          ownerId: job.ownerId,
          jobId: job.id,
          imageId: job.imageId,
          parentId: fields.parentId && UUID.test(fields.parentId) ? fields.parentId : null,
          label: (fields.label ?? 'mask').slice(0, 200),
          filename: `${id}.png`,
          storageKey: key,
          isSubmitted: true,
        }),
      )
      .catch(async (err: unknown) => {
        await storage.delete(key);
        throw err;
      });
    if (!row) {
      await storage.delete(key);
      throw notFound('job');
    }
    // the owner's open results pages refresh their jobs (the job now lists the mask: Re-run with masks)
    deps.notify(job.ownerId, 'job', { id: job.id, status: job.status });
    return present(row);
  } finally {
    await dispose();
  }
}

/** The mask image for the job's owner and JOB.READ; 404 for anyone else. */
export async function readableMask(db: Db, auth: AuthContext, id: string): Promise<repo.MaskRow> {
  const mask = await repo.findMask(db, id);
  if (!mask || (mask.ownerId !== auth.user.id && !mayReadOthers(auth))) throw notFound('mask');
  return mask;
}
