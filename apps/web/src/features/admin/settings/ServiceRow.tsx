import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconRefresh } from '@tabler/icons-react';
import type { HealthService, ServiceHealth } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { HEALTHCHECK_KEY, settingsApi } from './api';

type State = 'checking' | 'ok' | 'degraded' | 'failing' | 'notConfigured';

function stateOf(pending: boolean, data: ServiceHealth | undefined): State {
  if (pending || !data) return pending ? 'checking' : 'failing';
  if (!data.configured) return 'notConfigured';
  return data.ok ? 'ok' : data.degraded ? 'degraded' : 'failing';
}

const colors: Record<State, string> = { checking: 'blue', ok: 'green', degraded: 'orange', failing: 'red', notConfigured: 'gray' };

/** One service: its name, what was checked, a status badge and a re-check button. */
export function ServiceRow({ service }: { service: HealthService }) {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: [...HEALTHCHECK_KEY, service],
    queryFn: () => call(settingsApi.healthcheck, { params: { service } }),
    staleTime: 30_000,
    retry: false,
  });
  const state = stateOf(q.isFetching, q.data);
  const name = t(`adminSettings.services.names.${service}`);
  const detail = q.isError ? errorText(t, q.error, 'admin.error') : (q.data?.detail ?? '');
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      py="xs"
      gap="sm"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      data-testid={`service-${service}`}
      data-state={state}
    >
      <div style={{ minWidth: 0, flex: 1 }}>
        <Text fw={500} size="sm">
          {name}
        </Text>
        <Text size="xs" c="dimmed" truncate="end" title={detail}>
          {detail}
        </Text>
      </div>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        <Badge color={colors[state]} variant="light" data-testid={`service-${service}-badge`}>
          {t(`adminSettings.services.state.${state}`)}
        </Badge>
        <Tooltip label={t('adminSettings.services.recheck')}>
          <ActionIcon
            variant="subtle"
            onClick={() => void q.refetch()}
            loading={q.isFetching}
            aria-label={t('adminSettings.services.recheckOne', { name })}
          >
            <IconRefresh size={16} />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}
