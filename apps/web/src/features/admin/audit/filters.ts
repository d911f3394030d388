/** The audit log's filters and page in the query string (`?actorId=…&action=user.&targetType=user&targetId=…&page=2`). */
import { AUDIT_PAGE_SIZE, type AuditLogQuery } from '@lamella/contracts';
import type { AuditFilterValues } from './AuditFilters';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const text = (v: string | null, max: number) => (v && v.trim() ? v.trim().slice(0, max) : null);

export function decodeAuditFilters(params: URLSearchParams): { filters: AuditFilterValues; page: number } {
  const actorId = params.get('actorId');
  const page = Number(params.get('page'));
  return {
    filters: {
      actorId: actorId && UUID.test(actorId) ? actorId : null,
      action: text(params.get('action'), 80),
      targetType: text(params.get('targetType'), 40),
      targetId: text(params.get('targetId'), 100) ?? '',
    },
    page: Number.isInteger(page) && page > 1 && page <= 100_000 ? page : 1,
  };
}

/** The query string of these filters and page; empty filters and page 1 are left out. */
export function encodeAuditFilters(f: AuditFilterValues, page = 1): URLSearchParams {
  const p = new URLSearchParams();
  if (f.actorId) p.set('actorId', f.actorId);
  if (f.action) p.set('action', f.action);
  if (f.targetType) p.set('targetType', f.targetType);
  if (f.targetId.trim()) p.set('targetId', f.targetId.trim());
  if (page > 1) p.set('page', String(page));
  return p;
}

/** GET /admin/audit-log's query for these filters and page. */
export function auditQuery(f: AuditFilterValues, page: number): AuditLogQuery {
  return {
    page,
    pageSize: AUDIT_PAGE_SIZE,
    ...(f.actorId ? { actorId: f.actorId } : {}),
    ...(f.action ? { action: f.action } : {}),
    ...(f.targetType ? { targetType: f.targetType } : {}),
    ...(f.targetId.trim() ? { targetId: f.targetId.trim() } : {}),
  };
}
