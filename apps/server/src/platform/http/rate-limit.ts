import { AppError } from './errors.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * What the accounts code counts attempts with: RateLimiter (in memory, one process) or RedisRateLimiter
 * (rate-limit-redis.ts, shared by every replica when REDIS_URL is set). Callers await every method.
 */
export interface Limiter {
  readonly limits: Record<keyof typeof authLimits, Limit>;
  hit(keys: Array<[string, Limit]>, messageKey?: string): void | Promise<void>;
  check(keys: Array<[string, Limit]>, messageKey?: string): void | Promise<void>;
  fail(keys: Array<[string, Limit]>): void | Promise<void>;
  reset(key: string): void | Promise<void>;
  clear(): void | Promise<void>;
}

/**
 * Fixed-window counters per key (account or address), in memory: one server process holds them. With several
 * replicas each would count its own share: REDIS_URL switches to RedisRateLimiter.
 */
export class RateLimiter implements Limiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(readonly limits: Record<keyof typeof authLimits, Limit> = authLimits) {}

  /** The default limits with the sign-ups per address and hour of the configuration (SIGNUP_LIMIT_PER_HOUR). */
  static withSignupLimit(perHour: number): RateLimiter {
    return new RateLimiter({ ...authLimits, signupAddress: { max: perHour, windowMs: minutes(60) } });
  }

  /**
   * Counts one attempt against every key; throws 429 RATE_LIMITED (with Retry-After and the message `messageKey`)
   * when any is over its limit.
   */
  hit(keys: Array<[string, Limit]>, messageKey = 'errors.rateLimited', now = Date.now()): void {
    let retryAfter = 0;
    for (const [key, limit] of keys) {
      let entry = this.hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + limit.windowMs };
        this.hits.set(key, entry);
      }
      entry.count += 1;
      if (entry.count > limit.max) retryAfter = Math.max(retryAfter, Math.ceil((entry.resetAt - now) / 1000));
    }
    if (this.hits.size > 50_000) this.sweep(now);
    if (retryAfter > 0) {
      throw new AppError(429, 'RATE_LIMITED', messageKey, { seconds: retryAfter }, [], { 'retry-after': String(retryAfter) });
    }
  }

  /**
   * Refuses (429) when any key has already used up its limit, without counting this attempt: for limits on
   * failures only (sign-in), where the attempt is counted by `fail` once it has failed.
   */
  check(keys: Array<[string, Limit]>, messageKey = 'errors.rateLimited', now = Date.now()): void {
    let retryAfter = 0;
    for (const [key, limit] of keys) {
      const entry = this.hits.get(key);
      if (entry && entry.resetAt > now && entry.count >= limit.max) retryAfter = Math.max(retryAfter, Math.ceil((entry.resetAt - now) / 1000));
    }
    if (retryAfter > 0) {
      throw new AppError(429, 'RATE_LIMITED', messageKey, { seconds: retryAfter }, [], { 'retry-after': String(retryAfter) });
    }
  }

  /** Counts one failed attempt against every key (see `check`). */
  fail(keys: Array<[string, Limit]>, now = Date.now()): void {
    for (const [key, limit] of keys) {
      let entry = this.hits.get(key);
      if (!entry || entry.resetAt <= now) {
        entry = { count: 0, resetAt: now + limit.windowMs };
        this.hits.set(key, entry);
      }
      entry.count += 1;
    }
    if (this.hits.size > 50_000) this.sweep(now);
  }

  /** Forgets every count (tests that set their own limits start from zero). */
  clear(): void {
    this.hits.clear();
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

const minutes = (n: number) => n * 60_000;

/**
 * Limits of the accounts area (per account and per address). Sign-in counts failed attempts only: a company
 * whose engineers all sign in from one address each morning is never held up, a password guesser is.
 */
export const authLimits = {
  signinAccount: { max: 10, windowMs: minutes(15) },
  signinAddress: { max: 50, windowMs: minutes(15) },
  signupAddress: { max: 20, windowMs: minutes(60) },
  resetAccount: { max: 5, windowMs: minutes(60) },
  resetAddress: { max: 30, windowMs: minutes(60) },
  otpAccount: { max: 10, windowMs: minutes(15) },
  otpAddress: { max: 50, windowMs: minutes(15) },
  /** Guesses of the current password when changing e-mail or password (PATCH /users/me/auth). */
  passwordCheckAccount: { max: 5, windowMs: minutes(15) },
} satisfies Record<string, Limit>;
