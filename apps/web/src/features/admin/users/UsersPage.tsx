/** Back-office users (back-office.md §2 "Users"): search, sort, chosen columns, CSV download, action menu. */
import { Group, Pagination, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { ADMIN_USERS_PAGE_SIZE, type UserSortKey } from '@lamella/contracts';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AdminListPage } from '../../../components/AdminListPage';
import { useAdminUsers, usersCsvUrl } from './api';
import { ColumnsMenu } from './ColumnsMenu';
import { csvColumns, loadColumns, nextSort, queryOf, saveColumns, type UserColumn } from './columns';
import { UsersTable } from './UsersTable';
import { ReportDownload } from '../common/ReportDownload';

export function UsersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const [search, setSearch] = useState(query.filter ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [columns, setColumns] = useState<UserColumn[]>(loadColumns);
  const users = useAdminUsers(query);

  /** Changes the query string; any change but the page's goes back to page 1. */
  const update = (patch: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    if (!('page' in patch)) next.delete('page');
    for (const [k, v] of Object.entries(patch))
      if (v) next.set(k, v);
      else next.delete(k);
    setParams(next, { replace: true });
  };
  const total = users.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));
  useEffect(() => {
    if (debounced !== (query.filter ?? '')) update({ filter: debounced || undefined });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const onSort = (key: UserSortKey) => update(nextSort(query, key));
  const onColumns = (cols: UserColumn[]) => {
    setColumns(cols);
    saveColumns(cols);
  };

  return (
    <AdminListPage
      title={t('adminUsers.title')}
      testId="admin-users"
      actions={
        <>
          <ColumnsMenu value={columns} onChange={onColumns} />
          <ReportDownload
            label={t('adminUsers.downloadCsv')}
            xlsxLabel={t('adminReports.download.usersXlsx')}
            href={(format) => usersCsvUrl(csvColumns(columns), format)}
          />
        </>
      }
      filters={
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('adminUsers.searchPlaceholder')}
          aria-label={t('adminUsers.searchPlaceholder')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={420}
          data-testid="users-search"
        />
      }
      query={users}
      empty={(users.data?.items.length ?? 0) === 0}
      emptyText={t('adminUsers.empty')}
      footer={
        users.data ? (
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" c="dimmed" data-testid="list-total">
              {t('adminUsers.total', { count: total })}
            </Text>
            {pages > 1 && (
              <Pagination
                value={query.page ?? 1}
                onChange={(p) => update({ page: p > 1 ? String(p) : undefined })}
                total={pages}
                size="sm"
                siblings={1}
              />
            )}
          </Group>
        ) : null
      }
    >
      <UsersTable rows={users.data?.items ?? []} columns={columns} query={query} onSort={onSort} />
    </AdminListPage>
  );
}
