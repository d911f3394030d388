import type { RedisClient } from '../redis/redis.ts';
import { AppError } from './errors.ts';
import { authLimits, type Limit, type Limiter } from './rate-limit.ts';

const refuse = (messageKey: string, seconds: number) =>
  new AppError(429, 'RATE_LIMITED', messageKey, { seconds, minutes: Math.ceil(seconds / 60) }, [], { 'retry-after': String(seconds) });

/**
 * The fixed-window counters of RateLimiter kept in Redis, so every replica counts against the same limit:
 * per key one counter, INCR and PEXPIRE NX in one MULTI (the window starts at the first attempt), PTTL for
 * the Retry-After.
 */
export class RedisRateLimiter implements Limiter {
  constructor(
    private readonly redis: RedisClient,
    readonly limits: Record<keyof typeof authLimits, Limit> = authLimits,
    private readonly prefix = 'lamella:rate:',
  ) {}

  static withSignupLimit(redis: RedisClient, perHour: number, prefix?: string): RedisRateLimiter {
    return new RedisRateLimiter(redis, { ...authLimits, signupAddress: { max: perHour, windowMs: 60 * 60_000 } }, prefix);
  }

  /** Counts one attempt per key; answers [count, ms left in the window] for each. */
  private async count(keys: Array<[string, Limit]>): Promise<Array<[number, number]>> {
    const multi = this.redis.multi();
    for (const [key, limit] of keys)
      multi
        .incr(this.prefix + key)
        .pExpire(this.prefix + key, limit.windowMs, 'NX')
        .pTTL(this.prefix + key);
    const replies = (await multi.exec()) as unknown as number[];
    return keys.map((_, i) => [Number(replies[i * 3]), Number(replies[i * 3 + 2])]);
  }

  async hit(keys: Array<[string, Limit]>, messageKey = 'errors.rateLimited'): Promise<void> {
    const counts = await this.count(keys);
    let retryAfter = 0;
    counts.forEach(([count, ttl], i) => {
      if (count > keys[i][1].max) retryAfter = Math.max(retryAfter, Math.ceil(Math.max(ttl, 1) / 1000));
    });
    if (retryAfter > 0) throw refuse(messageKey, retryAfter);
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  /** Forgets every counter under this limiter's prefix (tests). */
  async clear(): Promise<void> {
    const keys: string[] = [];
    for await (const batch of this.redis.scanIterator({ MATCH: `${this.prefix}*`, COUNT: 500 })) keys.push(...(batch as unknown as string[]));
    if (keys.length) await this.redis.del(keys);
  }
}
