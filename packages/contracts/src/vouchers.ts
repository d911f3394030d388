import { Type, type Static, type TSchema } from 'typebox';
import { IdParams, NoContent } from './common.ts';
import { endpoint } from './endpoint.ts';

const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

/**
 * Vouchers (back-office Vouchers, accounts.md §2): ADMIN creates batches of keys worth a number of model
 * executions; a signed-in user redeems a key for an IMAGES_LIMITED license.
 */
export const VouchersQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 })),
    sortBy: Type.Optional(
      Type.Union([Type.Literal('createdAt'), Type.Literal('key'), Type.Literal('executions'), Type.Literal('validUntil')], { default: 'createdAt' }),
    ),
    sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' })),
  },
  { $id: 'VouchersQuery' },
);
export type VouchersQuery = Static<typeof VouchersQuery>;

export const Voucher = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    createdAt: Type.String(),
    executions: Type.Integer(),
    validUntil: Nullable(Type.String()),
    takenBy: Nullable(Type.Object({ name: Type.String() })),
  },
  { $id: 'Voucher' },
);
export type Voucher = Static<typeof Voucher>;
/** Also answered as the `x-total-count` header. */
export const VoucherPage = Type.Object({ total: Type.Integer(), vouchers: Type.Array(Voucher) }, { $id: 'VoucherPage' });
export type VoucherPage = Static<typeof VoucherPage>;

export const CreateVouchersBody = Type.Object(
  {
    count: Type.Integer({ description: '1..1000' }),
    executions: Type.Integer({ description: 'At least 1' }),
    validUntil: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
  },
  { additionalProperties: false, $id: 'CreateVouchersBody' },
);
export type CreateVouchersBody = Static<typeof CreateVouchersBody>;
export const CreatedVoucher = Type.Object(
  { id: Type.String(), key: Type.String(), executions: Type.Integer(), validUntil: Nullable(Type.String()), createdAt: Type.String() },
  { $id: 'CreatedVoucher' },
);
export type CreatedVoucher = Static<typeof CreatedVoucher>;
export const CreatedVouchers = Type.Object({ vouchers: Type.Array(CreatedVoucher) }, { $id: 'CreatedVouchers' });
export type CreatedVouchers = Static<typeof CreatedVouchers>;

export const RedeemVoucherBody = Type.Object({ key: Type.String({ maxLength: 40 }) }, { additionalProperties: false, $id: 'RedeemVoucherBody' });
export type RedeemVoucherBody = Static<typeof RedeemVoucherBody>;
/** The new license. */
export const RedeemedVoucher = Type.Object(
  { type: Type.String(), images: Nullable(Type.Integer()), used: Type.Integer(), finish: Nullable(Type.String()) },
  { $id: 'RedeemedVoucher' },
);
export type RedeemedVoucher = Static<typeof RedeemedVoucher>;

const tags = ['vouchers'] as const;
export const vouchersApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/vouchers',
    operationId: 'listVouchers',
    tags,
    querystring: VouchersQuery,
    response: { 200: VoucherPage },
  }),
  create: endpoint({
    method: 'POST',
    path: '/admin/vouchers',
    operationId: 'createVouchers',
    tags,
    body: CreateVouchersBody,
    response: { 200: CreatedVouchers },
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/admin/vouchers/:id',
    operationId: 'deleteVoucher',
    tags,
    params: IdParams,
    response: { 204: NoContent },
  }),
  redeem: endpoint({
    method: 'POST',
    path: '/vouchers/redeem',
    operationId: 'redeemVoucher',
    tags,
    body: RedeemVoucherBody,
    response: { 200: RedeemedVoucher },
  }),
};
