/** The members of a group: add by user search, remove (a user is in at most one group per model). */
import { ActionIcon, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { UserSearch } from '../common/UserSearch';
import { GROUPS_KEY, custApi } from './api';
import type { CustomizationGroup } from '@lamella/contracts';

export function Members({ group }: { group: CustomizationGroup }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [userId, setUserId] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: GROUPS_KEY });
  const add = useMutation({
    mutationFn: (id: string) => custApi.addMember(group.id, id),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.memberAdded'));
      setUserId(null);
      await refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => custApi.removeMember(group.id, id),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.memberRemoved'));
      await refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const members = group.members ?? [];
  return (
    <Stack gap="xs">
      <Title order={5}>{t('admin.cust.members')}</Title>
      {members.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.cust.noMembers')}
        </Text>
      ) : (
        members.map((m) => (
          <Group key={m.id} justify="space-between" wrap="nowrap">
            <Text size="sm" truncate>
              {[m.name, m.surname].filter(Boolean).join(' ') || m.email || m.id}
            </Text>
            <ActionIcon variant="subtle" color="red" aria-label={t('admin.cust.removeMember')} onClick={() => remove.mutate(m.id)}>
              <IconX size={14} />
            </ActionIcon>
          </Group>
        ))
      )}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <div style={{ flex: 1, minWidth: 0 }}>
          <UserSearch
            value={userId}
            onChange={setUserId}
            placeholder={t('admin.models.userSearchPlaceholder')}
            exclude={members.map((m) => m.id)}
            testId="member-search"
          />
        </div>
        <Button size="sm" disabled={!userId} loading={add.isPending} onClick={() => userId && add.mutate(userId)}>
          {t('admin.cust.addMember')}
        </Button>
      </Group>
    </Stack>
  );
}
