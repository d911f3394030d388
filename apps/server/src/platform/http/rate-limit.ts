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
  /**
   * Counts one attempt against every key and then refuses (429) when any is over its limit: the count comes
   * first, atomically (one Map update in this process, INCR in Redis), so N concurrent attempts are never all
   * evaluated against a count that none of them has raised yet. Limits on failures only (sign-in) count the
   * attempt here and `reset` the keys once it succeeded.
   */
  hit(keys: Array<[string, Limit]>, messageKey?: string): void | Promise<void>;
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
      throw new AppError(429, 'RATE_LIMITED', messageKey, { seconds: retryAfter, minutes: Math.ceil(retryAfter / 60) }, [], {
        'retry-after': String(retryAfter),
      });
    }
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
 * Limits of the accounts area (per account and per address). Sign-in counts failed attempts only (an attempt
 * is counted before its password is checked, and a successful one takes its counts back): per account from
 * any address, and per address AND account, so one person's typos behind a company's shared address never
 * lock their colleagues out, and the person is held up only for the short window of their own address.
 */
export const authLimits = {
  signinAccount: { max: 10, windowMs: minutes(15) },
  /** Per client address and account (key `signin:ip:<address>:<account>`). */
  signinAddress: { max: 5, windowMs: minutes(5) },
  signupAddress: { max: 20, windowMs: minutes(60) },
  resetAccount: { max: 5, windowMs: minutes(60) },
  resetAddress: { max: 30, windowMs: minutes(60) },
  otpAccount: { max: 10, windowMs: minutes(15) },
  otpAddress: { max: 50, windowMs: minutes(15) },
  /** Guesses of the current password when changing e-mail or password (PATCH /users/me/auth). */
  passwordCheckAccount: { max: 5, windowMs: minutes(15) },
} satisfies Record<string, Limit>;
