import { randomBytes } from 'node:crypto';
import type { CreatedVouchers, CreateVouchersBody, RedeemedVoucher, VoucherPage, VouchersQuery } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { AuthContext } from '../../platform/auth/session.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import * as repo from './repo.ts';

/**
 * Vouchers (back-office Vouchers, accounts.md §2): ADMIN creates batches of keys worth a number of model
 * executions (recorded in the audit log); a signed-in user redeems a key for an IMAGES_LIMITED license
 * (created by VOUCHER). The list answers `{vouchers, total}` and the route also sets `x-total-count`.
 */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** XXXX-XXXX-XXXX from an alphabet without look-alikes (0/O, 1/I). */
export function voucherKey(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((b) => ALPHABET[b % ALPHABET.length]);
  return [chars.slice(0, 4), chars.slice(4, 8), chars.slice(8, 12)].map((c) => c.join('')).join('-');
}
const actorOf = (auth: AuthContext) => auth.impersonatorId ?? auth.user.id;
const asDb = (tx: unknown) => tx as Db;

export async function list(db: Db, q: VouchersQuery): Promise<VoucherPage> {
  const { rows, total } = await repo.page(db, q.sortBy ?? 'createdAt', q.sortOrder ?? 'asc', q.page ?? 1, q.pageSize ?? 10);
  return {
    total,
    vouchers: rows.map((r) => ({
      id: r.v.id,
      key: r.v.key,
      createdAt: r.v.createdAt.toISOString(),
      executions: r.v.executions,
      validUntil: r.v.validUntil?.toISOString() ?? null,
      takenBy: r.name !== null ? { name: `${r.name} ${r.surname}`.trim() } : null,
    })),
  };
}

export async function create(db: Db, auth: AuthContext, body: CreateVouchersBody): Promise<CreatedVouchers> {
  const { count: n, executions, validUntil } = body;
  const e = new FieldErrors();
  if (n <= 0) e.add('count', 'errors.voucherCount');
  if (n > 1000) e.add('count', 'errors.voucherCountMax');
  if (executions <= 0) e.add('executions', 'errors.voucherExecutions');
  const until = validUntil ? new Date(validUntil) : null;
  if (until && (Number.isNaN(until.getTime()) || until.getTime() <= Date.now())) e.add('validUntil', 'errors.voucherExpiry');
  e.throwIfAny();
  const rows = await db.transaction(async (tx) => {
    const created = await repo.insertMany(
      asDb(tx),
      Array.from({ length: n }, () => ({ key: voucherKey(), executions, validUntil: until, createdById: auth.user.id })),
    );
    await recordAudit(asDb(tx), {
      actorId: actorOf(auth),
      action: 'voucher.create',
      targetType: 'voucher',
      targetId: null,
      details: { count: n, executions, validUntil: until?.toISOString() ?? null, ids: created.map((v) => v.id) },
    });
    return created;
  });
  return {
    vouchers: rows.map((v) => ({
      id: v.id,
      key: v.key,
      executions: v.executions,
      validUntil: v.validUntil?.toISOString() ?? null,
      createdAt: v.createdAt.toISOString(),
    })),
  };
}

export async function remove(db: Db, auth: AuthContext, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await repo.remove(asDb(tx), id))) throw notFound('voucher');
    await recordAudit(asDb(tx), { actorId: actorOf(auth), action: 'voucher.delete', targetType: 'voucher', targetId: id });
  });
}

/** A user redeems a key once: a new IMAGES_LIMITED license replaces the active one. */
export async function redeem(db: Db, auth: AuthContext, rawKey: string): Promise<RedeemedVoucher> {
  const key = rawKey.trim().toUpperCase();
  return db.transaction(async (t) => {
    const tx = asDb(t);
    const voucher = await repo.take(tx, key, auth.user.id);
    if (!voucher) throw new AppError(400, 'INVALID_VOUCHER', 'errors.invalidVoucher', {}, [{ field: 'key', key: 'errors.invalidVoucher' }]);
    const license = await repo.replaceLicense(tx, auth.user.id, voucher.executions, voucher.validUntil);
    return { type: license.type, images: license.images, used: license.used, finish: license.finishAt?.toISOString() ?? null };
  });
}
