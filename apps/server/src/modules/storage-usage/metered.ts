import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import * as repo from './repo.ts';

/**
 * The key prefixes the ledger records: users' files `<prefix>/<userId>/…` (owner known), `results/<resultId>/…`
 * (counted for the job's owner), and the trained networks `networks/…` (issue 25: the system's, owner null, so no
 * user's quota counts them; a network serves every user whose job runs with that version).
 */
const OWNED = /^(?:images|masks|logos)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i;
export const METERED_PREFIXES = ['images/', 'masks/', 'logos/', 'results/', 'networks/'] as const;

export const ownerOfKey = (key: string): string | null => OWNED.exec(key)?.[1]?.toLowerCase() ?? null;
const metered = (key: string) => METERED_PREFIXES.some((p) => key.startsWith(p));

/**
 * The storage every module uses: the driver's, with each write and delete of a user's file recorded in
 * stored_objects (key, owner, bytes), so quotas count what is really stored (issue 28 item 3). A crash between a
 * write and its record is mended by the sweep (sweep.ts). Every other method is the driver's own.
 */
export function meteredStorage(inner: Storage, db: Db): Storage {
  const note = (key: string, bytes: number) => (metered(key) ? repo.record(db, [{ key, ownerId: ownerOfKey(key), bytes }]) : Promise.resolve());
  const overrides: Partial<Storage> = {
    async put(key: string, data: Buffer) {
      await inner.put(key, data);
      await note(key, data.length);
    },
    async putStream(key: string, source: Readable) {
      const bytes = await inner.putStream(key, source);
      await note(key, bytes);
      return bytes;
    },
    async putFile(key: string, path: string, options?: { move?: boolean }) {
      const { size } = await stat(path);
      await inner.putFile(key, path, options);
      await note(key, size);
    },
    async delete(key: string) {
      await inner.delete(key);
      if (metered(key)) await repo.forget(db, [key]);
    },
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop in overrides) return overrides[prop as keyof Storage];
      if (prop === 'unmetered') return target;
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
