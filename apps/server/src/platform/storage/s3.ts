import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { Storage, StoredFile } from './storage.ts';

export interface S3Settings {
  /** `S3_ENDPOINT`: the S3-compatible server (MinIO, Ceph, s3rver…); null: AWS itself. */
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  /** Keys are stored under this prefix (`S3_PREFIX`), e.g. `lamella/`; default none. */
  prefix?: string;
}

/** Bodies up to this size go in one PUT; larger ones in a multipart upload of parts this size. */
const PART_BYTES = 8 * 1024 * 1024;

const notFoundCodes = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);
const isNotFound = (err: unknown) => {
  const e = err as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return notFoundCodes.has(e.name ?? '') || notFoundCodes.has(e.Code ?? '') || e.$metadata?.httpStatusCode === 404;
};

/** A missing object as the disk driver reports a missing file (code ENOENT), so callers treat both alike. */
function missing(key: string, cause: unknown): NodeJS.ErrnoException {
  const err = new Error(`storage object not found: ${key}`, { cause }) as NodeJS.ErrnoException;
  err.code = 'ENOENT';
  return err;
}

/**
 * Files in an S3 bucket (AWS or any S3-compatible server: path-style addressing when an endpoint is given).
 * A write is visible complete or not at all: a PUT is atomic, a multipart upload appears only when it is
 * completed and is aborted on any error (no parts left behind). Reads stream the object's body.
 */
export class S3Storage implements Storage {
  readonly driver = 's3';
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.prefix = settings.prefix ?? '';
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.endpoint !== null,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Only checksums the server asks for: S3-compatible servers do not all know the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    if (!key || key.startsWith('/') || key.split('/').some((p) => p === '..' || p === '.' || p === ''))
      throw new Error(`storage key is not a clean relative path: ${key}`);
    return this.prefix + key;
  }

  async put(key: string, data: Buffer): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: data, ContentLength: data.length }));
  }

  async putStream(key: string, source: Readable): Promise<number> {
    const Key = this.key(key);
    let bytes = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    // A failing source must fail the upload (which then aborts its multipart upload).
    let sourceError: Error | null = null;
    source.on('error', (err) => {
      sourceError = err;
      counted.destroy(err);
    });
    source.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: counted },
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (err) {
      source.unpipe(counted);
      source.destroy();
      counted.destroy();
      await upload.abort().catch(() => undefined);
      // The source's own failure is the cause (an abort refused by the server would otherwise hide it).
      throw sourceError ?? err;
    }
    return bytes;
  }

  async putFile(key: string, path: string, options: { move?: boolean } = {}): Promise<void> {
    const { size } = await stat(path);
    if (size <= PART_BYTES) {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.key(key), Body: createReadStream(path), ContentLength: size }));
    } else {
      await this.putStream(key, createReadStream(path));
    }
    if (options.move) await rm(path, { force: true });
  }

  async get(key: string): Promise<Buffer> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return Buffer.from(await out.Body!.transformToByteArray());
    } catch (err) {
      if (isNotFound(err)) throw missing(key, err);
      throw err;
    }
  }

  /** The object's bytes as they arrive; a missing object fails the stream with code ENOENT. */
  stream(key: string): Readable {
    const out = new PassThrough();
    const Key = this.key(key);
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucket, Key }))
      .then((res) => {
        const body = res.Body as Readable;
        body.on('error', (err) => out.destroy(err));
        out.on('close', () => body.destroy());
        body.pipe(out);
      })
      .catch((err) => out.destroy(isNotFound(err) ? missing(key, err) : err));
    return out;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    // Deleting a missing object is not an error in S3 (as `rm --force` on disk).
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async ping(): Promise<boolean> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    return true;
  }

  /** Objects under `prefix`, a page of 1,000 at a time (ListObjectsV2). */
  async *list(prefix: string): AsyncIterable<StoredFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix + prefix, ContinuationToken: token, MaxKeys: 1000 }),
      );
      for (const o of page.Contents ?? [])
        if (o.Key) yield { key: o.Key.slice(this.prefix.length), bytes: o.Size ?? 0, modifiedAt: o.LastModified ?? new Date(0) };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  close(): void {
    this.client.destroy();
  }
}
