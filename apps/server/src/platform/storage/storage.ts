import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile, access } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** Where originals, renditions, masks, logos and result files live. Keys are `/`-separated relative paths. */
export interface Storage {
  readonly driver: string;
  put(key: string, data: Buffer): Promise<void>;
  get(key: string): Promise<Buffer>;
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  ping(): Promise<boolean>;
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
    const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, data);
      await rename(tmp, target);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
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
}

export function createStorage(dataDir: string): Storage {
  return new DiskStorage(join(dataDir, 'files'));
}
