import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile, access } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.ts';

/** Where originals, renditions, masks, logos and result files live. Keys are `/`-separated relative paths. */
export interface Storage {
  readonly driver: string;
  put(key: string, data: Buffer): Promise<void>;
  /** Writes a stream under `key` (atomically: complete or not at all); answers the bytes written. */
  putStream(key: string, source: Readable): Promise<number>;
  /**
   * Stores the file at `path` under `key` (atomically). `move`: the file is taken (renamed when on the same
   * file system, else copied and removed), so a large upload is never copied twice nor held in memory.
   */
  putFile(key: string, path: string, options?: { move?: boolean }): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
  /** Every stored file whose key starts with `prefix` (the sweep and the quota tests read the store itself). */
  list(prefix: string): AsyncIterable<StoredFile>;
}

export interface StoredFile {
  key: string;
  bytes: number;
  modifiedAt: Date;
}

/**
 * Files on disk under `root`. A write goes to a temporary name in the same folder and is renamed when
 * complete, so a reader never sees a half-written file.
 */
export class DiskStorage implements Storage {
  readonly driver = 'disk';
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    const p = resolve(this.root, key);
    if (!p.startsWith(this.root + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return p;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = this.tempName(target);
    try {
      await writeFile(tmp, data);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putStream(key: string, source: Readable): Promise<number> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    const tmp = this.tempName(target);
    let bytes = 0;
    source.on('data', (chunk: Buffer) => (bytes += chunk.length));
    try {
      await pipeline(source, createWriteStream(tmp, { flags: 'wx' }));
      await rename(tmp, target);
      return bytes;
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, path: string, options: { move?: boolean } = {}): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    if (options.move) {
      try {
        await rename(path, target);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      }
    }
    const tmp = this.tempName(target);
    try {
      await copyFile(path, tmp);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    if (options.move) await rm(path, { force: true });
  }

  private tempName(target: string): string {
    return `${target}.${randomBytes(6).toString('hex')}.tmp`;
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.path(key));
  }

  stream(key: string): Readable {
    return createReadStream(this.path(key));
  }

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.path(key));
      return true;
    } catch {
      return false;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async ping(): Promise<boolean> {
    await mkdir(this.root, { recursive: true });
    await access(this.root);
    return true;
  }

  /** Files under `prefix` (temporary `.tmp` names of writes in progress are not files yet). */
  async *list(prefix: string): AsyncIterable<StoredFile> {
    const base = this.root;
    async function* walk(dir: string): AsyncIterable<StoredFile> {
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const full = join(dir, e.name);
        if (e.isDirectory()) yield* walk(full);
        else if (e.isFile() && !e.name.endsWith('.tmp')) {
          const key = relative(base, full).split(sep).join('/');
          if (!key.startsWith(prefix)) continue;
          const s = await stat(full).catch(() => null);
          if (s) yield { key, bytes: s.size, modifiedAt: s.mtime };
        }
      }
    }
    // walk from the deepest folder the prefix names
    const folder = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    yield* walk(folder ? this.path(folder) : base);
  }
}

/**
 * The storage of the configuration: an S3 bucket when `S3_BUCKET` is set (with `S3_ENDPOINT` for an
 * S3-compatible server), else files on disk in DATA_DIR/files. The S3 driver and its SDK are loaded only then
 * (their modules take about a second to load: a server on disk does not pay it at start).
 */
export async function createStorage(dataDir: string, s3?: Config['s3']): Promise<Storage> {
  if (s3?.bucket) {
    const { S3Storage } = await import('./s3.ts');
    return new S3Storage({ ...s3, bucket: s3.bucket });
  }
  if (s3?.endpoint) throw new Error('S3_ENDPOINT is set without S3_BUCKET: set both to store files in S3');
  return new DiskStorage(join(dataDir, 'files'));
}
