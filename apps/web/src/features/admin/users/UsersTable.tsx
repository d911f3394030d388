import { Table } from '@mantine/core';
import type { AdminUserListItem, AdminUsersQuery, UserSortKey } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { SORTABLE, type UserColumn } from './columns';
import { SortableHeader } from '../../../components/SortableHeader';
import { UserActionsMenu } from './UserActionsMenu';
import { UserCell } from './UserCell';

/** The users table: the chosen columns, server-side sort on the sortable ones, the action menu per row. */
export function UsersTable({
  rows,
  columns,
  query,
  onSort,
}: {
  rows: AdminUserListItem[];
  columns: UserColumn[];
  query: AdminUsersQuery;
  onSort: (key: UserSortKey) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="xs" data-testid="users-table">
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => {
              const key = SORTABLE[c];
              return (
                <Table.Th key={c}>
                  {key ? (
                    <SortableHeader
                      label={t(`adminUsers.columns.${c}`)}
                      active={query.sortKey === key}
                      order={query.sortOrder}
                      onSort={() => onSort(key)}
                    />
                  ) : (
                    t(`adminUsers.columns.${c}`)
                  )}
                </Table.Th>
              );
            })}
            <Table.Th aria-label={t('adminUsers.actions.column')} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((u) => (
            <Table.Tr key={u.id} data-testid={`user-row-${u.email}`}>
              {columns.map((c) => (
                <Table.Td key={c}>
                  <UserCell user={u} col={c} />
                </Table.Td>
              ))}
              <Table.Td>
                <UserActionsMenu
                  user={{
                    id: u.id,
                    name: u.fullName || u.email,
                    role: u.role,
                    removeDataPermanently: u.tags.removeDataPermanently,
                    deletionDueAt: u.deletionDueAt,
                  }}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
