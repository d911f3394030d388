import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/** The audit log of privileged staff writes (who, what, target, when), readable by ADMIN. */

export const AUDIT_PAGE_SIZE = 50;

export const AuditLogQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: AUDIT_PAGE_SIZE })),
    /** The staff member who acted. */
    actorId: Type.Optional(Type.String({ format: 'uuid' })),
    /** What was acted on: `user`, `job`, `launcher`, … */
    targetType: Type.Optional(Type.String({ maxLength: 40 })),
    targetId: Type.Optional(Type.String({ maxLength: 100 })),
    /** An action code (`user.role.set`) or its prefix ending with a dot (`user.`). */
    action: Type.Optional(Type.String({ maxLength: 80 })),
  },
  { $id: 'AuditLogQuery', additionalProperties: false },
);
export type AuditLogQuery = Static<typeof AuditLogQuery>;

export const AuditLogEntry = Type.Object(
  {
    id: Type.String(),
    createdAt: Type.String(),
    actor: Type.Union([Type.Object({ id: Type.String(), fullName: Type.String(), email: Type.String() }), Type.Null()]),
    action: Type.String(),
    targetType: Type.String(),
    targetId: Type.Union([Type.String(), Type.Null()]),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'AuditLogEntry' },
);
export type AuditLogEntry = Static<typeof AuditLogEntry>;

/** One page, newest first. */
export const AuditLogPage = Type.Object(
  { items: Type.Array(AuditLogEntry), total: Type.Integer(), page: Type.Integer(), pageSize: Type.Integer() },
  { $id: 'AuditLogPage' },
);
export type AuditLogPage = Static<typeof AuditLogPage>;

const tags = ['audit'] as const;
export const auditApi = {
  list: endpoint({
    method: 'GET',
    path: '/admin/audit-log',
    operationId: 'listAuditLog',
    tags,
    querystring: AuditLogQuery,
    response: { 200: AuditLogPage },
  }),
};
