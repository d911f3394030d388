import { ActionIcon, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconUserMinus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupMemberUsage } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { confirmDelete } from '../admin/common/confirm';
import { GROUP_ADMIN_KEY, groupsApi } from './api';

/**
 * The group's members with their usage (images, jobs this month); remove asks first and keeps the member's data.
 * A table on wide screens; on phones one block per member (name, e-mail, company, then the usage and remove).
 */
export function MembersTable({ members }: { members: GroupMemberUsage[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: (userId: string) => call(groupsApi.removeMember, { params: { userId } }),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: GROUP_ADMIN_KEY });
    },
    onError: (e) => notifyError(errorText(t, e)),
  });
  const wide = useMediaQuery('(min-width: 48em)', true);
  const removeButton = (m: GroupMemberUsage) => (
    <Tooltip label={t('groupAdmin.members.remove', { name: m.fullName })}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={t('groupAdmin.members.remove', { name: m.fullName })}
        onClick={() => confirmDelete(t, t('groupAdmin.members.removeConfirm', { name: m.fullName }), () => remove.mutate(m.id))}
      >
        <IconUserMinus size={16} />
      </ActionIcon>
    </Tooltip>
  );
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('groupAdmin.members.title')}
        </Title>
        {members.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('groupAdmin.members.empty')}
          </Text>
        ) : !wide ? (
          <Stack gap={0} data-testid="group-members">
            {members.map((m) => (
              <Group
                key={m.id}
                data-testid="group-member-row"
                justify="space-between"
                wrap="nowrap"
                gap="xs"
                py="xs"
                style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
              >
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500}>
                    {m.fullName}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {m.email}
                  </Text>
                  {m.company ? (
                    <Text size="xs" c="dimmed">
                      {m.company}
                    </Text>
                  ) : null}
                  <Group gap="md" mt={4}>
                    <Text size="xs">
                      {t('groupAdmin.members.images')}{' '}
                      <Text span fw={600} size="xs" data-testid="member-images">
                        {m.images}
                      </Text>
                    </Text>
                    <Text size="xs">
                      {t('groupAdmin.members.jobsThisMonth')}{' '}
                      <Text span fw={600} size="xs" data-testid="member-jobs">
                        {m.jobsThisMonth}
                      </Text>
                    </Text>
                  </Group>
                </Stack>
                {removeButton(m)}
              </Group>
            ))}
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table striped verticalSpacing="xs" data-testid="group-members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('groupAdmin.members.name')}</Table.Th>
                  <Table.Th>{t('groupAdmin.members.company')}</Table.Th>
                  <Table.Th ta="right">{t('groupAdmin.members.images')}</Table.Th>
                  <Table.Th ta="right">{t('groupAdmin.members.jobsThisMonth')}</Table.Th>
                  <Table.Th w={70}>{t('groupAdmin.members.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.map((m) => (
                  <Table.Tr key={m.id} data-testid="group-member-row">
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {m.fullName}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {m.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{m.company}</Text>
                    </Table.Td>
                    <Table.Td ta="right" data-testid="member-images">
                      {m.images}
                    </Table.Td>
                    <Table.Td ta="right" data-testid="member-jobs">
                      {m.jobsThisMonth}
                    </Table.Td>
                    <Table.Td>{removeButton(m)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
