/** The selected group: names, model, description, actions (edit, clone, delete), members and parents. */
import { ActionIcon, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconCopy, IconDotsVertical, IconEdit, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText } from '../../../lib/errorText';
import { GROUPS_KEY, custApi, modelIdOf } from './api';
import type { CustomizationGroup } from '@lamella/contracts';
import { Members } from './Members';
import { Inheritance } from './Inheritance';
import { GroupVersionSelect } from '../training/GroupVersionSelect';

export function GroupDetails({
  group,
  groups,
  onEdit,
  onGone,
  onCloned,
}: {
  group: CustomizationGroup;
  groups: CustomizationGroup[];
  onEdit: () => void;
  onGone: () => void;
  onCloned: (id: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const clone = useMutation({
    mutationFn: () => custApi.clone(group.id),
    onSuccess: async (g) => {
      notifySuccess(t('admin.cust.groupCloned'));
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
      onCloned(g?.id);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const remove = useMutation({
    mutationFn: () => custApi.remove(group.id),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.groupDeleted'));
      onGone();
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.cust.deleteFailed')),
  });
  return (
    <Paper withBorder p="sm" data-testid="group-details">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed" fw={700} tt="uppercase">
              {t('admin.cust.groupInfo')}
            </Text>
            <Title order={4} style={{ wordBreak: 'break-word' }}>
              {group.nameEn}
            </Title>
            <Text size="sm" c="dimmed">
              {group.nameDe}
            </Text>
          </div>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="light" aria-label={t('admin.cust.groupInfo')} data-testid="group-menu">
                <IconDotsVertical size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={14} />} onClick={onEdit}>
                {t('admin.edit')}
              </Menu.Item>
              <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => clone.mutate()}>
                {t('admin.cust.clone')}
              </Menu.Item>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={() => confirmDelete(t, t('admin.cust.deleteConfirm'), () => remove.mutate())}
              >
                {t('admin.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <div>
          <Text size="sm">
            <Text span c="dimmed">
              {t('admin.cust.model')}:{' '}
            </Text>
            {group.model?.displayName ?? modelIdOf(group)}
          </Text>
          {group.description && (
            <Text size="sm" mt={4} style={{ wordBreak: 'break-word' }}>
              {group.description}
            </Text>
          )}
        </div>
        <GroupVersionSelect group={group} />
        <Members group={group} />
        <Inheritance group={group} groups={groups} />
      </Stack>
    </Paper>
  );
}
