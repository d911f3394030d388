import { Group, Pagination, Paper, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUDIT_PAGE_SIZE, type AuditLogQuery } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage } from '../../../components/AdminListPage';
import { useAuditLog } from './api';
import { AuditFilters, noFilters, type AuditFilterValues } from './AuditFilters';
import { AuditTable } from './AuditTable';

/** /admin/audit-log (ADMIN): every privileged staff write, newest first, filtered by actor, action and target. */
export function AuditLogPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<AuditFilterValues>(noFilters);
  const [page, setPage] = useState(1);
  const [targetId] = useDebouncedValue(filters.targetId.trim(), 300);
  const query: AuditLogQuery = {
    page,
    pageSize: AUDIT_PAGE_SIZE,
    ...(filters.actorId ? { actorId: filters.actorId } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.targetType ? { targetType: filters.targetType } : {}),
    ...(targetId ? { targetId } : {}),
  };
  const log = useAuditLog(query);
  const pages = Math.max(1, Math.ceil((log.data?.total ?? 0) / AUDIT_PAGE_SIZE));
  const changeFilters = (next: AuditFilterValues) => {
    setFilters(next);
    setPage(1);
  };
  return (
    <AdminListPage
      title={t('auditLog.title')}
      filters={
        <>
          <Text size="sm" c="dimmed">
            {t('auditLog.intro')}
          </Text>
          <AuditFilters value={filters} onChange={changeFilters} />
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
        <Text size="sm" c="dimmed">
          {t('auditLog.total', { count: log.data?.total ?? 0 })}
        </Text>
        {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} size="sm" siblings={1} />}
      </Group>
    </AdminListPage>
  );
}
