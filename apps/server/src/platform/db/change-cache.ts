import { LRUCache } from 'lru-cache';
import type { Database } from './client.ts';

/**
 * The NOTIFY channels of the change triggers: the payload is the id of the user whose data changed, or '*'.
 * - `lamella_auth` (migration 0017): a user's row, sessions, privileges or group administration.
 * - `lamella_jobs` (migration 0018): a user's jobs, or what their wire shape shows (masks, ratings, images); '*' for
 *   models, customization groups, projects, back-office ratings and truncations.
 */
export const CHANNELS = { auth: 'lamella_auth', jobs: 'lamella_jobs' } as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** A cache fed by the change feed. */
interface Subscriber {
  readonly channels: readonly Channel[];
  /** The feed listens (again): entries may be kept. */
  up(): void;
  /** The feed's connection is lost: nothing may be kept or answered from the cache until it is up again. */
  down(): void;
  changed(channel: Channel, payload: string): void;
  /** This server wrote (a request that may write, or a job event): every entry goes. */
  clear(): void;
}

/**
 * Every server LISTENs, on one connection, to the change channels and hands each notification to the caches that
 * read those rows. Caches subscribe before `start`.
 */
export class ChangeFeed {
  private readonly subscribers: Subscriber[] = [];
  private stopListening: (() => Promise<void>) | null = null;

  subscribe(s: Subscriber): void {
    this.subscribers.push(s);
  }

  async start(database: Database): Promise<void> {
    const channels = [...new Set(this.subscribers.flatMap((s) => s.channels))];
    if (!channels.length) return;
    this.stopListening = await database.listen(channels, {
      up: () => this.subscribers.forEach((s) => s.up()),
      down: () => this.subscribers.forEach((s) => s.down()),
      message: (channel, payload) =>
        this.subscribers.forEach((s) => s.channels.includes(channel as Channel) && s.changed(channel as Channel, payload)),
    });
  }

  /** This server changed something: all caches are emptied before the change is answered or announced. */
  localChange(): void {
    this.subscribers.forEach((s) => s.clear());
  }

  async stop(): Promise<void> {
    this.subscribers.forEach((s) => s.down());
    await this.stopListening?.();
    this.stopListening = null;
  }
}

export interface ChangeCacheOptions<V> {
  channels: readonly Channel[];
  ttlSeconds: number;
  /** Entries at most (default 20,000). */
  max?: number;
  /** With `sizeOf`: the sum of sizes at most (an entry larger than a tenth of it is not kept). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** The scope a notification drops (default: its payload; '*': every entry). */
  scopeOf?: (channel: Channel, payload: string) => string;
}

/**
 * Answers kept per key, each under a scope (a user id), for at most `ttlSeconds`, and dropped as soon as the rows
 * they were read from change (issue 15: "a short cache invalidated on change"):
 * - by any replica, job or SQL console: the triggers NOTIFY the scope at commit and every server drops its entries;
 * - by this server: `clear` through ChangeFeed.localChange before the write is answered, so the writer's next
 *   request never waits for the notification;
 * - a read that began before an invalidation is not stored (`begin`/`set` generation), so an old answer never
 *   comes back;
 * - while the feed is down nothing is kept or answered.
 */
export class ChangeCache<V> implements Subscriber {
  readonly channels: readonly Channel[];
  private readonly entries: LRUCache<string, { value: V; scope: string }>;
  private readonly byScope = new Map<string, Set<string>>();
  private readonly scopeOf: (channel: Channel, payload: string) => string;
  private generation = 0;
  private listening = false;
  /** Told of every look-up, hit or miss (the cache hit-rate metric, issue 29). */
  meter: ((hit: boolean) => void) | null = null;

  constructor(opts: ChangeCacheOptions<V>) {
    this.channels = opts.channels;
    this.scopeOf = opts.scopeOf ?? ((_channel, payload) => payload);
    const sizeOf = opts.sizeOf;
    this.entries = new LRUCache<string, { value: V; scope: string }>({
      max: opts.max ?? 20_000,
      ttl: opts.ttlSeconds * 1000,
      ...(sizeOf && opts.maxSize
        ? { maxSize: opts.maxSize, maxEntrySize: Math.ceil(opts.maxSize / 10), sizeCalculation: (e: { value: V }) => Math.max(1, sizeOf(e.value)) }
        : {}),
      dispose: (entry, key) => {
        const keys = this.byScope.get(entry.scope);
        keys?.delete(key);
        if (keys && !keys.size) this.byScope.delete(entry.scope);
      },
    });
  }

  up(): void {
    this.clear();
    this.listening = true;
  }

  down(): void {
    this.listening = false;
    this.clear();
  }

  changed(channel: Channel, payload: string): void {
    const scope = this.scopeOf(channel, payload);
    if (scope === '*') this.clear();
    else this.drop(scope);
  }

  /** The generation a read starts at; `set` keeps its answer only if nothing was invalidated since. */
  begin(): number {
    return this.generation;
  }

  get(key: string): V | undefined {
    const value = this.listening ? this.entries.get(key)?.value : undefined;
    this.meter?.(value !== undefined);
    return value;
  }

  set(key: string, scope: string, value: V, startedAt: number): void {
    if (!this.listening || startedAt !== this.generation) return;
    if (!this.entries.set(key, { value, scope }).has(key)) return; // too large to keep
    let keys = this.byScope.get(scope);
    if (!keys) this.byScope.set(scope, (keys = new Set()));
    keys.add(key);
  }

  delete(key: string): void {
    this.generation++;
    this.entries.delete(key);
  }

  drop(scope: string): void {
    this.generation++;
    for (const key of [...(this.byScope.get(scope) ?? [])]) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
