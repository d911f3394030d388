import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditApi, type AuditLogQuery } from '@lamella/contracts';
import { call } from '../../../api/client';

/** One page of the audit log (GET /admin/audit-log), newest first; the previous page stays shown while the next loads. */
export function useAuditLog(query: AuditLogQuery) {
  return useQuery({
    queryKey: ['admin', 'audit-log', query],
    queryFn: ({ signal }) => call(auditApi.list, { query, signal }),
    placeholderData: keepPreviousData,
  });
}
