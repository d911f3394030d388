import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer as readAll } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../src/platform/storage/storage.ts';

const present = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** A stream that sends `chunks` and then fails: an upload cut off half-way. */
function failingAfter(chunks: Buffer[]): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i < chunks.length) this.push(chunks[i++]);
      else this.destroy(new Error('client went away'));
    },
  });
}

/**
 * The behaviour every Storage driver must have (disk, S3): the same tests run against each.
 * `open` gives a fresh storage; `close` ends it.
 */
export function storageBehaviour(name: string, open: () => Promise<{ storage: Storage; close: () => Promise<void> }>) {
  describe(`storage driver ${name}`, () => {
    let storage: Storage;
    let close: () => Promise<void>;
    let tmp: string;
    beforeAll(async () => {
      ({ storage, close } = await open());
      tmp = await mkdtemp(join(tmpdir(), 'lamella-storage-suite-'));
    });
    afterAll(async () => {
      await close();
      await rm(tmp, { recursive: true, force: true });
    });

    it('answers its ping', async () => {
      expect(await storage.ping()).toBe(true);
    });

    it('stores bytes and reads them back (get, stream), overwrites, deletes', async () => {
      const data = randomBytes(70_000);
      expect(await storage.exists('a/b/one.bin')).toBe(false);
      await storage.put('a/b/one.bin', data);
      expect(await storage.exists('a/b/one.bin')).toBe(true);
      expect((await storage.get('a/b/one.bin')).equals(data)).toBe(true);
      expect((await readAll(storage.stream('a/b/one.bin'))).equals(data)).toBe(true);
      const other = Buffer.from('second version');
      await storage.put('a/b/one.bin', other);
      expect((await storage.get('a/b/one.bin')).toString()).toBe('second version');
      await storage.delete('a/b/one.bin');
      expect(await storage.exists('a/b/one.bin')).toBe(false);
      // Deleting what is not there is not an error.
      await storage.delete('a/b/one.bin');
    });

    it('a missing file: get rejects and stream fails with ENOENT', async () => {
      await expect(storage.get('missing/file.bin')).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(readAll(storage.stream('missing/file.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
    });

    it('streams a large upload (several parts) and answers the bytes written', async () => {
      const parts = Array.from({ length: 20 }, () => randomBytes(512 * 1024)); // 10 MB
      const written = await storage.putStream('big/upload.bin', Readable.from(parts));
      expect(written).toBe(10 * 1024 * 1024);
      const back = await readAll(storage.stream('big/upload.bin'));
      expect(back.length).toBe(written);
      expect(back.equals(Buffer.concat(parts))).toBe(true);
    });

    it('an upload that fails half-way leaves nothing visible (and keeps the earlier version)', async () => {
      await expect(storage.putStream('cut/new.bin', failingAfter([randomBytes(300_000), randomBytes(300_000)]))).rejects.toThrow(/went away/);
      expect(await storage.exists('cut/new.bin')).toBe(false);
      await storage.put('cut/old.bin', Buffer.from('complete'));
      // Past the multipart threshold: the parts already sent are aborted, not completed.
      const many = Array.from({ length: 20 }, () => randomBytes(512 * 1024));
      await expect(storage.putStream('cut/old.bin', failingAfter(many))).rejects.toThrow(/went away/);
      expect((await storage.get('cut/old.bin')).toString()).toBe('complete');
    });

    it('stores a file by path: copied, or taken with move', async () => {
      const src = join(tmp, 'src.bin');
      const data = randomBytes(100_000);
      await writeFile(src, data);
      await storage.putFile('files/copied.bin', src);
      expect(await present(src)).toBe(true);
      expect((await storage.get('files/copied.bin')).equals(data)).toBe(true);
      await storage.putFile('files/moved.bin', src, { move: true });
      expect(await present(src)).toBe(false);
      expect((await storage.get('files/moved.bin')).equals(await storage.get('files/copied.bin'))).toBe(true);
      // A file past the single-request size goes in parts.
      const large = join(tmp, 'large.bin');
      await writeFile(large, randomBytes(9 * 1024 * 1024));
      await storage.putFile('files/large.bin', large);
      expect((await storage.get('files/large.bin')).equals(await readFile(large))).toBe(true);
    });

    it('refuses keys that leave its root', async () => {
      const later = <T>(fn: () => Promise<T>) => Promise.resolve().then(fn);
      await expect(later(() => storage.put('../escape.bin', Buffer.from('x')))).rejects.toThrow();
      await expect(later(() => storage.get('a/../../escape.bin'))).rejects.toThrow();
    });
  });
}
