import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';

const MB = 1024 * 1024;

/** One uploaded file, received into a temporary file while its bytes were counted and hashed. */
export interface ReceivedFile {
  /** The client's file name, checked and made safe (no path separators, at most 255 characters). */
  filename: string;
  path: string;
  size: number;
  sha256: string;
}

export interface UploadLimits {
  fileBytes: number;
  requestBytes: number;
  /** What the owner may still store; null: no quota. */
  remainingQuotaBytes: number | null;
  quotaBytes: number | null;
}

export const fileTooLarge = (file: string, maxBytes: number) =>
  new AppError(413, 'FILE_TOO_LARGE', 'storage.errors.fileTooLarge', { file, max: mb(maxBytes) }, [
    { field: 'files', key: 'storage.errors.fileTooLarge', vars: { file, max: mb(maxBytes) } },
  ]);
export const requestTooLarge = (maxBytes: number) =>
  new AppError(413, 'REQUEST_TOO_LARGE', 'storage.errors.requestTooLarge', { max: mb(maxBytes) }, [
    { field: 'files', key: 'storage.errors.requestTooLarge', vars: { max: mb(maxBytes) } },
  ]);
export const quotaExceeded = (quotaBytes: number, remainingBytes: number) => {
  const vars = { quota: mb(quotaBytes), remaining: mb(Math.max(0, remainingBytes)) };
  return new AppError(413, 'STORAGE_QUOTA_EXCEEDED', 'storage.errors.quotaExceeded', vars, [
    { field: 'files', key: 'storage.errors.quotaExceeded', vars },
  ]);
};

/** Megabytes as people read them: `200`, `0.5`. */
function mb(bytes: number): string {
  return String(Math.round((bytes / MB) * 100) / 100);
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A file name as stored and shown: control characters refused (400), path separators replaced. */
export function safeFilename(raw: string | undefined): string {
  const name = raw ?? '';
  if (CONTROL.test(name)) {
    // eslint-disable-next-line no-control-regex
    const shown = name.replace(/[\u0000-\u001f\u007f]/g, '?').slice(0, 255);
    throw new AppError(400, 'INVALID_FILENAME', 'storage.errors.invalidFilename', { file: shown }, [
      { field: 'files', key: 'storage.errors.invalidFilename', vars: { file: shown } },
    ]);
  }
  return name.replace(/[\\/]/g, '_').slice(0, 255) || 'image';
}

/** Counts and hashes the bytes passing through; fails as soon as a limit is passed. */
class Meter extends Transform {
  bytes = 0;
  readonly hash = createHash('sha256');
  constructor(private readonly check: (bytes: number) => AppError | null) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null, data?: Buffer) => void): void {
    this.bytes += chunk.length;
    const err = this.check(this.bytes);
    if (err) return done(err);
    this.hash.update(chunk);
    done(null, chunk);
  }
}

/** A folder of its own for one request's temporary files, under `root`. */
async function requestFolder(root: string): Promise<string> {
  const dir = join(root, `${Date.now()}-${randomBytes(6).toString('hex')}`);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** Where uploads wait while they arrive: beside the stored files (DATA_DIR/files), so taking one is a rename. */
export const uploadsDir = (dataDir: string) => join(dataDir, 'tmp', 'uploads');

export interface ReceiveOptions {
  /** The folder for temporary files (uploadsDir). */
  tmpRoot: string;
  /** The multipart field the files come in; files of other fields are skipped. */
  fileField: string;
  /** At most this many files are kept (further ones are skipped); default unlimited. */
  maxFiles?: number;
  limits: UploadLimits;
}

/**
 * Receives the files of one multipart field into temporary files, one at a time as they arrive: nothing is
 * held in memory. Refuses (413) as soon as the request's declared length, a file, the request or the owner's
 * storage quota passes its limit, and a file name with control characters (400). Text fields are collected
 * (control characters other than tab and newline refused). On any refusal every temporary file is removed
 * before the error is thrown; otherwise the caller calls `dispose()` when done with the files.
 */
export async function receiveMultipart(
  request: FastifyRequest,
  options: ReceiveOptions,
): Promise<{ files: ReceivedFile[]; fields: Record<string, string>; dispose: () => Promise<void> }> {
  const { limits } = options;
  const declared = Number(request.headers['content-length'] ?? NaN);
  // The declared length includes the multipart framing: a little slack keeps exact-limit uploads possible.
  const slack = 64 * 1024;
  if (Number.isFinite(declared)) {
    if (declared > limits.requestBytes + slack) throw requestTooLarge(limits.requestBytes);
    if (limits.remainingQuotaBytes !== null && declared > limits.remainingQuotaBytes + slack)
      throw quotaExceeded(limits.quotaBytes ?? 0, limits.remainingQuotaBytes);
  }
  if (limits.remainingQuotaBytes !== null && limits.remainingQuotaBytes <= 0) throw quotaExceeded(limits.quotaBytes ?? 0, 0);

  const dir = await requestFolder(options.tmpRoot);
  const dispose = () => rm(dir, { recursive: true, force: true });
  const files: ReceivedFile[] = [];
  const fields: Record<string, string> = {};
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        const value = String(part.value ?? '');
        // eslint-disable-next-line no-control-regex
        if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value))
          throw new AppError(400, 'INVALID_FIELD', 'storage.errors.invalidField', { field: part.fieldname }, [
            { field: part.fieldname, key: 'storage.errors.invalidField' },
          ]);
        fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== options.fileField || (options.maxFiles !== undefined && files.length >= options.maxFiles)) {
        part.file.resume();
        continue;
      }
      const filename = safeFilename(part.filename);
      const path = join(dir, String(files.length));
      const meter = new Meter((bytes) => {
        if (bytes > limits.fileBytes) return fileTooLarge(filename, limits.fileBytes);
        if (total + bytes > limits.requestBytes) return requestTooLarge(limits.requestBytes);
        if (limits.remainingQuotaBytes !== null && total + bytes > limits.remainingQuotaBytes)
          return quotaExceeded(limits.quotaBytes ?? 0, limits.remainingQuotaBytes);
        return null;
      });
      try {
        await pipeline(part.file, meter, createWriteStream(path, { flags: 'wx' }));
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(filename, limits.fileBytes);
        throw err;
      }
      if (part.file.truncated) throw fileTooLarge(filename, limits.fileBytes);
      total += meter.bytes;
      files.push({ filename, path, size: meter.bytes, sha256: meter.hash.digest('hex') });
    }
  } catch (err) {
    // Refused mid-request: stop parsing, discard what the client still sends (so it can read the answer) and
    // close the connection after the answer.
    request.raw.unpipe();
    request.raw.resume();
    await dispose();
    const e = err as { code?: string; part?: { filename?: string } };
    const refusal = e.code === 'FST_REQ_FILE_TOO_LARGE' ? fileTooLarge(e.part?.filename ?? options.fileField, limits.fileBytes) : err;
    if (refusal instanceof AppError) refusal.headers.connection = 'close';
    throw refusal;
  }
  return { files, fields, dispose };
}

/** Removes request folders left by a server that stopped mid-upload (older than an hour). */
export async function sweepStaleUploads(tmpRoot: string): Promise<void> {
  const entries = await readdir(tmpRoot).catch(() => [] as string[]);
  const cutoff = Date.now() - 3600_000;
  for (const name of entries) {
    const path = join(tmpRoot, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(path, { recursive: true, force: true });
  }
}

/** The first bytes of a file: enough for a content check by magic bytes. */
export async function fileHead(path: string, bytes = 16): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
