import { ActionIcon, Group, MultiSelect, Paper, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import type { UserGroup } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GroupNameInput } from './GroupNameInput';
import { UserOptionView } from './UserOptionView';
import { userFilter, type UserItem } from './userOptions';
import type { GroupMutations } from './useGroupMutations';

interface Props {
  group: UserGroup;
  adminItems: UserItem[];
  memberItems: UserItem[];
  mutations: GroupMutations;
  onDelete: (group: UserGroup) => void;
  /** A table row (wide screens) or a card with labelled fields (phones). */
  layout?: 'row' | 'card';
}

/** One group: the name (rename inline), Admin (searchable, clearable), Members (searchable multi-select), delete. */
export function GroupRow({ group, adminItems, memberItems, mutations, onDelete, layout = 'row' }: Props) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  // The members picked while their PUT is on its way (null: show the saved list).
  const [pending, setPending] = useState<string[] | null>(null);
  // The admin picked while the PATCH is on its way (undefined: show the saved one).
  const [pendingAdmin, setPendingAdmin] = useState<string | null | undefined>(undefined);
  const byId = new Map([...adminItems, ...memberItems].map((i) => [i.value, i]));
  const render = ({ option }: { option: { value: string } }) => {
    const item = byId.get(option.value);
    return item ? <UserOptionView item={item} /> : null;
  };
  const card = layout === 'card';
  const title = renaming ? (
    <GroupNameInput
      initial={group.name}
      testId="group-rename-input"
      onCancel={() => setRenaming(false)}
      onCommit={(name) => mutations.update.mutate({ id: group.id, body: { id: group.id, name } }, { onSettled: () => setRenaming(false) })}
    />
  ) : (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" fw={500} data-testid="group-name">
        {group.name}
      </Text>
      <Tooltip label={t('adminGroups.rename', { name: group.name })}>
        <ActionIcon variant="subtle" size="sm" aria-label={t('adminGroups.rename', { name: group.name })} onClick={() => setRenaming(true)}>
          <IconPencil size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
  const admin = (
    <Select
      size="xs"
      label={card ? t('adminGroups.col.admin') : undefined}
      searchable
      clearable
      data={adminItems}
      value={pendingAdmin === undefined ? group.adminId : pendingAdmin}
      filter={userFilter(adminItems)}
      renderOption={render}
      placeholder={t('adminGroups.adminPlaceholder')}
      nothingFoundMessage={t('adminGroups.noUsers')}
      aria-label={t('adminGroups.adminLabel', { name: group.name })}
      data-testid="group-admin-select"
      onChange={(adminId) => {
        setPendingAdmin(adminId ?? null);
        mutations.update.mutate({ id: group.id, body: { adminId: adminId ?? null } }, { onSettled: () => setPendingAdmin(undefined) });
      }}
    />
  );
  const members = (
    <MultiSelect
      size="xs"
      label={card ? t('adminGroups.col.members') : undefined}
      searchable
      data={memberItems}
      value={pending ?? group.users}
      filter={userFilter(memberItems)}
      renderOption={render}
      placeholder={t('adminGroups.membersPlaceholder')}
      nothingFoundMessage={t('adminGroups.noUsers')}
      aria-label={t('adminGroups.membersLabel', { name: group.name })}
      data-testid="group-members-select"
      onChange={(usersIds) => {
        setPending(usersIds);
        mutations.setUsers.mutate({ id: group.id, usersIds }, { onSettled: () => setPending(null) });
      }}
    />
  );
  const remove = (
    <Tooltip label={t('adminGroups.delete', { name: group.name })}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t('adminGroups.delete', { name: group.name })}
        onClick={() => onDelete(group)}
        data-testid="group-delete"
      >
        <IconTrash size={16} />
      </ActionIcon>
    </Tooltip>
  );
  if (card)
    return (
      <Paper withBorder p="sm" data-testid="group-row">
        <Stack gap="xs">
          <Group justify="space-between" wrap="nowrap">
            {title}
            {remove}
          </Group>
          {admin}
          {members}
        </Stack>
      </Paper>
    );
  return (
    <Table.Tr data-testid="group-row">
      <Table.Td>{title}</Table.Td>
      <Table.Td>{admin}</Table.Td>
      <Table.Td>{members}</Table.Td>
      <Table.Td>{remove}</Table.Td>
    </Table.Tr>
  );
}
