import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, isNull, or } from 'drizzle-orm';
import { Type } from 'typebox';
import { IdParams } from '@lamella/contracts';
import type { App, Ctx } from '../../app.ts';
import { requireAuth } from '../../platform/auth/guard.ts';
import { AppError, notFound, validationFailed, type ErrorDetail } from '../../platform/http/errors.ts';
import { licenses, users, vouchers } from '../../platform/db/schema/index.ts';

const tags = ['vouchers'];
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** XXXX-XXXX-XXXX from an alphabet without look-alikes (0/O, 1/I). */
export function voucherKey(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)].map((c) => c.join('')).join('-');
}

const sortColumns = { createdAt: vouchers.createdAt, key: vouchers.key, executions: vouchers.executions, validUntil: vouchers.validUntil };

/**
 * Vouchers (back-office Vouchers, accounts.md §2): ADMIN creates batches of keys worth a number of model
 * executions; a signed-in user redeems a key for an IMAGES_LIMITED license (created by VOUCHER).
 * The list answers `{vouchers, total}` and also sets `x-total-count` (both readings of the spec).
 */
export async function vouchersRoutes(app: App, ctx: Ctx): Promise<void> {
  const guard = { auth: { roles: ['ADMIN' as const] } };

  app.get(
    '/admin/vouchers',
    {
      config: guard,
      schema: {
        tags,
        querystring: Type.Object({
          page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 })),
          sortBy: Type.Optional(
            Type.Union(
              Object.keys(sortColumns).map((k) => Type.Literal(k)),
              { default: 'createdAt' },
            ),
          ),
          sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
        }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const pageSize = q.pageSize ?? 10;
      const column = sortColumns[(q.sortBy ?? 'createdAt') as keyof typeof sortColumns];
      const dir = q.sortOrder === 'desc' ? desc : asc;
      const [rows, [total]] = await Promise.all([
        ctx.db
          .select({ v: vouchers, name: users.name, surname: users.surname })
          .from(vouchers)
          .leftJoin(users, eq(users.id, vouchers.takenById))
          .orderBy(dir(column), dir(vouchers.id))
          .limit(pageSize)
          .offset(((q.page ?? 1) - 1) * pageSize),
        ctx.db.select({ n: count() }).from(vouchers),
      ]);
      reply.header('x-total-count', String(total.n));
      return {
        total: Number(total.n),
        vouchers: rows.map((r) => ({
          id: r.v.id,
          key: r.v.key,
          createdAt: r.v.createdAt.toISOString(),
          executions: r.v.executions,
          validUntil: r.v.validUntil?.toISOString() ?? null,
          takenBy: r.name !== null ? { name: `${r.name} ${r.surname}`.trim() } : null,
        })),
      };
    },
  );

  app.post(
    '/admin/vouchers',
    {
      config: guard,
      schema: {
        tags,
        body: Type.Object(
          { count: Type.Integer(), executions: Type.Integer(), validUntil: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { count: n, executions, validUntil } = request.body;
      const problems: ErrorDetail[] = [];
      if (n <= 0) problems.push({ field: 'count', key: 'errors.voucherCount' });
      if (n > 1000) problems.push({ field: 'count', key: 'errors.voucherCountMax' });
      if (executions <= 0) problems.push({ field: 'executions', key: 'errors.voucherExecutions' });
      const until = validUntil ? new Date(validUntil) : null;
      if (until && (Number.isNaN(until.getTime()) || until.getTime() <= Date.now()))
        problems.push({ field: 'validUntil', key: 'errors.voucherExpiry' });
      if (problems.length) throw validationFailed(problems);
      const createdById = requireAuth(request).user.id;
      const rows = await ctx.db
        .insert(vouchers)
        .values(Array.from({ length: n }, () => ({ key: voucherKey(), executions, validUntil: until, createdById })))
        .returning();
      return {
        vouchers: rows.map((v) => ({
          id: v.id,
          key: v.key,
          executions: v.executions,
          validUntil: v.validUntil?.toISOString() ?? null,
          createdAt: v.createdAt.toISOString(),
        })),
      };
    },
  );

  app.delete('/admin/vouchers/:id', { config: guard, schema: { tags, params: IdParams } }, async (request, reply) => {
    const [row] = await ctx.db.delete(vouchers).where(eq(vouchers.id, request.params.id)).returning({ id: vouchers.id });
    if (!row) throw notFound('voucher');
    return reply.status(204).send();
  });

  /** A user redeems a key once: a new IMAGES_LIMITED license replaces the active one. */
  app.post(
    '/vouchers/redeem',
    { config: { auth: 'user' }, schema: { tags, body: Type.Object({ key: Type.String({ maxLength: 40 }) }, { additionalProperties: false }) } },
    async (request) => {
      const auth = requireAuth(request);
      const key = request.body.key.trim().toUpperCase();
      return ctx.db.transaction(async (tx) => {
        const [voucher] = await tx
          .update(vouchers)
          .set({ takenById: auth.user.id, takenAt: new Date() })
          .where(and(eq(vouchers.key, key), isNull(vouchers.takenById), or(isNull(vouchers.validUntil), gt(vouchers.validUntil, new Date()))))
          .returning();
        if (!voucher) throw new AppError(400, 'INVALID_VOUCHER', 'errors.invalidVoucher', {}, [{ field: 'key', key: 'errors.invalidVoucher' }]);
        await tx
          .update(licenses)
          .set({ active: false })
          .where(and(eq(licenses.userId, auth.user.id), eq(licenses.active, true)));
        const [license] = await tx
          .insert(licenses)
          .values({ userId: auth.user.id, type: 'IMAGES_LIMITED', createdBy: 'VOUCHER', images: voucher.executions, finishAt: voucher.validUntil })
          .returning();
        return { type: license.type, images: license.images, used: license.used, finish: license.finishAt?.toISOString() ?? null };
      });
    },
  );
}
