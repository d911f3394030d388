import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { accessKeys } from '../db/schema/index.ts';

/**
 * Access-key usage (request count, time of last use) counted in memory and written in one UPDATE per key every
 * `KEY_USAGE_FLUSH_MS` (5 s), not one per request: a script calling the API a thousand times a minute costs a dozen
 * writes a minute, not a thousand. The owner's key list flushes this replica's counts first, so what it shows is
 * exact for requests this replica served; another replica's requests appear within the flush interval. Counts of
 * at most one interval are lost if the process dies without closing (a count is statistics, not billing).
 */
export const KEY_USAGE_FLUSH_MS = 5000;

interface Pending {
  count: number;
  /** The newest use to write as last_used_at (null: the stored time is recent enough). */
  lastUsedAt: Date | null;
}

class KeyUsage {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly db: Db) {}

  count(keyId: string, touchAt: Date | null): void {
    const p = this.pending.get(keyId) ?? { count: 0, lastUsedAt: null };
    p.count += 1;
    if (touchAt) p.lastUsedAt = touchAt;
    this.pending.set(keyId, p);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), KEY_USAGE_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes every pending count (one UPDATE per key); concurrent calls wait for the same writes. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.flushing.then(async () => {
      for (const [id, p] of batch) {
        try {
          await this.db
            .update(accessKeys)
            .set({ requestCount: sql`${accessKeys.requestCount} + ${p.count}`, ...(p.lastUsedAt ? { lastUsedAt: p.lastUsedAt } : {}) })
            .where(eq(accessKeys.id, id));
        } catch {
          // the database is closing or gone: these counts are lost (see above), the next ones are not
        }
      }
    });
    return this.flushing;
  }
}

const usage = new WeakMap<Db, KeyUsage>();
const of = (db: Db) => {
  let u = usage.get(db);
  if (!u) usage.set(db, (u = new KeyUsage(db)));
  return u;
};

/** Counts one request made with the key; `touchAt`: also record this as the time of last use. */
export const countKeyUse = (db: Db, keyId: string, touchAt: Date | null) => of(db).count(keyId, touchAt);
/** Writes the counted uses now (before reading the counts; when the app closes). */
export const flushKeyUse = (db: Db) => usage.get(db)?.flush() ?? Promise.resolve();
