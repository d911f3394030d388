import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComputeModel } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { UserSearch } from '../common/UserSearch';
import { computeModelsApi, modelAccessKey } from './api';

/** The Access tab: who may use a PRIVATE model. */
export function AccessTab({ model }: { model: ComputeModel }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = modelAccessKey(model.id);
  const grants = useQuery({ queryKey: key, queryFn: () => call(computeModelsApi.access, { params: { id: model.id } }) });
  const [userId, setUserId] = useState<string | null>(null);
  const grant = useMutation({
    mutationFn: (id: string) => call(computeModelsApi.grant, { params: { id: model.id }, body: { userId: id } }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.accessGranted'));
      setUserId(null);
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => call(computeModelsApi.revoke, { params: { id: model.id, userId: id } }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.accessRevoked'));
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const list = grants.data ?? [];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('admin.models.accessHint')}
      </Text>
      <Group align="flex-end" wrap="wrap" gap="xs">
        <div style={{ flex: 1, minWidth: 200 }}>
          <UserSearch
            label={t('admin.models.userSearch')}
            placeholder={t('admin.models.userSearchPlaceholder')}
            value={userId}
            onChange={setUserId}
            exclude={list.map((g) => g.userId)}
            testId="grant-user"
          />
        </div>
        <Button disabled={!userId} loading={grant.isPending} onClick={() => userId && grant.mutate(userId)}>
          {t('admin.models.grant')}
        </Button>
      </Group>
      {grants.isPending ? (
        <Loader size="sm" />
      ) : grants.isError ? (
        <Alert color="red">{errorText(t, grants.error, 'admin.error')}</Alert>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.models.noGrants')}
        </Text>
      ) : (
        <Stack gap={4}>
          {list.map((g) => (
            <Group key={g.id} justify="space-between" wrap="nowrap">
              <Text size="sm" truncate>
                {[g.user.name, g.user.surname].filter(Boolean).join(' ') || g.user.email}
              </Text>
              <Button size="xs" variant="subtle" color="red" onClick={() => revoke.mutate(g.userId)}>
                {t('admin.models.revoke')}
              </Button>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
