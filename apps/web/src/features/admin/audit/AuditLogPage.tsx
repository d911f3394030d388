import { Group, Pagination, Paper, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUDIT_PAGE_SIZE } from '@lamella/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AdminListPage } from '../../../components/AdminListPage';
import { useAuditLog } from './api';
import { AuditFilters, type AuditFilterValues } from './AuditFilters';
import { AuditTable } from './AuditTable';
import { auditQuery, decodeAuditFilters, encodeAuditFilters } from './filters';

/**
 * /admin/audit-log (ADMIN): every privileged staff write, newest first, filtered by actor, action and target.
 * The filters and the page are the query string, so a filtered view can be reloaded, bookmarked and shared.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const { filters, page } = decodeAuditFilters(params);
  // The target id is typed: the field follows the keyboard, the query string (and the call) its debounced value.
  const [targetId, setTargetId] = useState(filters.targetId);
  const [debouncedTargetId] = useDebouncedValue(targetId.trim(), 300);
  const go = (next: AuditFilterValues, nextPage = 1) => setParams(encodeAuditFilters(next, nextPage), { replace: true });
  useEffect(() => {
    if (debouncedTargetId !== filters.targetId) go({ ...filters, targetId: debouncedTargetId });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedTargetId]);
  const log = useAuditLog(auditQuery(filters, page));
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / AUDIT_PAGE_SIZE));
  /** A choice goes to the query string at once; typing in the target id only after the pause (the effect above). */
  const changeFilters = (next: AuditFilterValues) => {
    setTargetId(next.targetId);
    const chosen = next.actorId !== filters.actorId || next.action !== filters.action || next.targetType !== filters.targetType;
    if (chosen || next.targetId === '') go({ ...next, targetId: next.targetId.trim() });
  };
  return (
    <AdminListPage
      title={t('auditLog.title')}
      filters={
        <>
          <Text size="sm" c="dimmed">
            {t('auditLog.intro')}
          </Text>
          <AuditFilters value={{ ...filters, targetId }} onChange={changeFilters} />
        </>
      }
      query={log}
      errorTitle={t('auditLog.loadFailed')}
      empty={log.data?.items.length === 0}
      emptyText={t('auditLog.empty')}
    >
      <Paper withBorder>
        <AuditTable items={log.data?.items ?? []} />
      </Paper>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" data-testid="list-total">
          {t('auditLog.total', { count: log.data?.total ?? 0 })}
        </Text>
        {pages > 1 && <Pagination value={page} onChange={(p) => go(filters, p)} total={pages} size="sm" siblings={1} />}
      </Group>
    </AdminListPage>
  );
}
