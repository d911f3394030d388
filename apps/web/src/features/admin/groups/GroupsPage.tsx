import { Button, Stack, Table } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import type { UserGroup } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminListPage } from '../../../components/AdminListPage';
import { confirmDelete } from '../common/confirm';
import { useAdminGroups, useGroupUserOptions } from './api';
import { GroupRow } from './GroupRow';
import { NewGroupRow } from './NewGroupRow';
import { userItems } from './userOptions';
import { useGroupMutations } from './useGroupMutations';

/**
 * /admin/groups (back-office.md §2 Groups screen): the table Name, Admin, Members; 'Add group' adds an inline row
 * committed on Enter or blur; Admin is a searchable clearable single select, Members a searchable multi-select
 * (name, e-mail, company or id); rename inline; delete after a confirmation. On phones each group is a card with
 * labelled fields instead of a table row (the four columns do not fit 375 px).
 */
export function GroupsPage() {
  const { t } = useTranslation();
  const list = useAdminGroups();
  const users = useGroupUserOptions();
  const mutations = useGroupMutations();
  const [adding, setAdding] = useState(false);
  const wide = useMediaQuery('(min-width: 62em)', true);
  const groups = list.data ?? [];
  const options = users.data ?? [];
  // The users load with the groups: one loading / error state for both.
  const query = {
    isPending: list.isPending || users.isPending,
    isError: list.isError || users.isError,
    error: list.error ?? users.error,
    refetch: () => Promise.all([list.refetch(), users.refetch()]),
  };
  const onDelete = (g: UserGroup) => confirmDelete(t, t('adminGroups.deleteConfirm', { name: g.name }), () => mutations.remove.mutate(g.id));
  const layout = wide ? 'row' : 'card';
  const newRow = adding ? <NewGroupRow layout={layout} mutations={mutations} onDone={() => setAdding(false)} /> : null;
  const rows = groups.map((g) => (
    <GroupRow
      key={g.id}
      layout={layout}
      group={g}
      adminItems={userItems(options, groups, g, false)}
      memberItems={userItems(options, groups, g, true)}
      mutations={mutations}
      onDelete={onDelete}
    />
  ));
  return (
    <AdminListPage
      title={t('adminGroups.title')}
      testId="admin-groups"
      query={query}
      empty={groups.length === 0 && !adding}
      emptyText={t('adminGroups.empty')}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={adding} data-testid="group-add">
          {t('adminGroups.add')}
        </Button>
      }
    >
      {wide ? (
        <Table.ScrollContainer minWidth={760}>
          <Table verticalSpacing="xs" data-testid="groups-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w="25%">{t('adminGroups.col.name')}</Table.Th>
                <Table.Th w="25%">{t('adminGroups.col.admin')}</Table.Th>
                <Table.Th>{t('adminGroups.col.members')}</Table.Th>
                <Table.Th w={70}>{t('adminGroups.col.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {newRow}
              {rows}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Stack gap="sm" data-testid="groups-cards">
          {newRow}
          {rows}
        </Stack>
      )}
    </AdminListPage>
  );
}
