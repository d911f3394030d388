import type { FastifyRequest } from 'fastify';
import { translate } from '@lamella/i18n';
import { requestLanguage } from '../../platform/http/language.ts';
import { eq, type SQL } from 'drizzle-orm';
import { AppError, notFound, validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { users } from '../../platform/db/schema/index.ts';

/** Everything in the compute back-office is ADMIN only, except the jobs pages (JOB.READ, back-office §6). */
export const ADMIN = { auth: { roles: ['ADMIN' as const] } };
export const JOB_READ = { auth: { permission: 'JOB.READ' } };
export const USER = { auth: 'user' as const };

/** A success text of back-office §8 in the caller's language (namespace adminMessages). */
export function message(request: FastifyRequest, key: string, vars: Record<string, string | number> = {}): string {
  return translate(requestLanguage(request), `adminMessages.${key}`, vars);
}

/** Collects field errors; `throwIfAny` raises 400 VALIDATION_FAILED naming each field (nothing is changed). */
export class FieldErrors {
  readonly list: ErrorDetail[] = [];
  add(field: string, key: string, vars?: Record<string, string | number>): void {
    this.list.push({ field, key: `adminErrors.${key}`, vars });
  }
  required(field: string, value: unknown, key = 'required'): string {
    if (typeof value !== 'string' || !value.trim()) {
      this.add(field, key);
      return '';
    }
    return value.trim();
  }
  throwIfAny(): void {
    if (this.list.length) throw validationFailed(this.list);
  }
}

export const conflict = (code: string, key: string, vars: Record<string, string | number> = {}) =>
  new AppError(409, code, `adminErrors.${key}`, vars);
export const badRequest = (code: string, key: string, vars: Record<string, string | number> = {}) =>
  new AppError(400, code, `adminErrors.${key}`, vars);

export const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** Seconds with one decimal, or null. */
export const seconds = (ms: number | null | undefined): number | null =>
  ms === null || ms === undefined || !Number.isFinite(Number(ms)) ? null : Math.round(Number(ms) / 100) / 10;

/** Raw SQL rows (PGlite and node-postgres both answer `{rows}`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

/** The user named by a body's `userId`: 400 naming the field when it is not an id, 404 when no such user. */
export async function userFromBody(db: Db, userId: unknown): Promise<{ id: string }> {
  if (!isUuid(userId)) {
    const e = new FieldErrors();
    e.add('userId', 'userRequired');
    e.throwIfAny();
  }
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId as string));
  if (!u) throw notFound('user');
  return u;
}
