import { Type, type Static } from 'typebox';
import { endpoint } from './endpoint.ts';

/** The audit log of privileged staff writes (who, what, target, when), readable by ADMIN. */

export const AUDIT_PAGE_SIZE = 50;

/**
 * Every action code the server records (apps/server/test/audit-actions.test.ts checks the sources against it); the
 * back-office names each one (admin/audit/labels.ts). Codes no longer written stay listed: old entries keep them.
 */
export const AUDIT_ACTIONS = [
  'user.role.set',
  'user.activate',
  'user.preferences.set',
  'user.privileges.set',
  'user.impersonate.start',
  'user.impersonate.end',
  'user.delete',
  'user.delete.schedule',
  'user.delete.cancel',
  'access.denied',
  'impersonation.write',
  'license.assign',
  'settings.demoLicense.set',
  'settings.maintenance.set',
  'job.feedback.add',
  'job.feedback.delete',
  'job.rerun',
  'launcher.create',
  'launcher.delete',
  'launcher.updateAll',
  'launcher.token.create',
  'launcher.token.revoke',
  'model.access.grant',
  'model.access.revoke',
  'model.create',
  'model.update',
  'model.delete',
  'model.archive',
  'model.unarchive',
  'model.example.update',
  'model.manual.update',
  'model.training.start',
  'model.training.cancel',
  'model.version.promote',
  'model.version.rollback',
  'node.create',
  'node.delete',
  'node.start',
  'node.stop',
  'storage.quota.set',
  'template.create',
  'template.update',
  'template.delete',
  'voucher.create',
  'voucher.delete',
  'group.create',
  'group.update',
  'group.delete',
  'group.members.set',
  'group.member.add',
  'group.member.invite',
  'group.member.remove',
  'group.invitation.accept',
  'group.invitation.decline',
  'customization.group.create',
  'customization.group.update',
  'customization.group.delete',
  'customization.group.clone',
  'customization.member.add',
  'customization.member.remove',
  'customization.parents.set',
  'customization.parent.remove',
  'customization.settings.set',
  'customization.version.set',
  'insight.create',
  'insight.update',
  'insight.delete',
  'insight.visibility.reset',
  'news.create',
  'news.update',
  'news.delete',
  'public_image.upload',
  'public_image.delete',
  'terms.publish',
  'translation.override.set',
  'translation.override.delete',
  'translations.reload',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The target types the server records. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'job',
  'node',
  'launcher',
  'model',
  'settings',
  'customization_group',
  'settings_template',
  'storage_quota',
  'voucher',
  'group',
  'insight',
  'news',
  'public_image',
  'terms',
  'translation',
  'translations',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

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
    /** What the target is called now (a user's name, a model's display name…), else as recorded; null when unknown. */
    targetName: Type.Union([Type.String(), Type.Null()]),
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
