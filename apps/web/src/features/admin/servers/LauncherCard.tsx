import { ActionIcon, Badge, Card, Collapse, Group, Text, Tooltip } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconChevronDown, IconChevronUp, IconPlugConnected, IconTrash } from '@tabler/icons-react';
import type { Launcher } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { formatAdminDateTime } from '../../../lib/format';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { computeNodesApi, LAUNCHER_VERSIONS_KEY, NODES_KEY } from './api';
import { LauncherDetails } from './LauncherDetails';
import { isBeta } from './logic';

const STATE_COLOR = { running: 'green', updating: 'yellow', stopped: 'gray', failed: 'red', notResponding: 'orange' } as const;

/** One launcher of the selected server: port, state, version, actions, and its details when expanded. */
export function LauncherCard({ launcher, expanded, onToggle }: { launcher: Launcher; expanded: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const test = useMutation({
    mutationFn: () => call(computeNodesApi.testLauncher, { params: { id: launcher.id } }),
    onSuccess: (r) => (r.isConnected ? notifySuccess(t('admin.servers.testOk')) : notifyError(t('admin.servers.testFailed'))),
    onError: () => notifyError(t('admin.servers.testFailed')),
    // the server records the launcher's answer (last seen, models): show it now rather than at the next refresh
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: NODES_KEY }), qc.invalidateQueries({ queryKey: LAUNCHER_VERSIONS_KEY })]),
  });
  const remove = useMutation({
    mutationFn: () => call(computeNodesApi.removeLauncher, { params: { id: launcher.id } }),
    onSuccess: () => {
      notifySuccess(t('admin.servers.launcherDeleted'));
      return qc.invalidateQueries({ queryKey: NODES_KEY });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const state = launcher.state;
  const stateText =
    state === 'failed'
      ? t('compute.servers.failed')
      : state === 'notResponding'
        ? t('compute.servers.notResponding')
        : t(`admin.servers.launcherState.${state}`);
  const badge = (
    <Badge color={STATE_COLOR[state]} variant="light" data-testid="launcher-state" data-state={state}>
      {stateText}
    </Badge>
  );
  return (
    <Card withBorder padding="sm" data-testid="launcher-card" data-launcher-id={launcher.id}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>:{launcher.port}</Text>
          {state === 'notResponding' ? (
            <Tooltip
              label={t('compute.servers.notRespondingHint', {
                when: launcher.lastSeenAt ? formatAdminDateTime(launcher.lastSeenAt) : t('admin.servers.never'),
              })}
              multiline
              maw={280}
              withArrow
            >
              {badge}
            </Tooltip>
          ) : (
            badge
          )}
          <Badge variant="outline" color="gray" tt="none">
            {t('compute.servers.versionBadge', { version: launcher.version })}
          </Badge>
          {isBeta(launcher.version) && (
            <Badge color="orange" variant="filled">
              {t('admin.servers.beta')}
            </Badge>
          )}
        </Group>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={t('admin.servers.testConnection')}>
            <ActionIcon variant="light" onClick={() => test.mutate()} loading={test.isPending} aria-label={t('admin.servers.testConnection')}>
              <IconPlugConnected size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={t('admin.servers.deleteLauncher')}>
            <ActionIcon
              variant="light"
              color="red"
              loading={remove.isPending}
              aria-label={t('admin.servers.deleteLauncher')}
              onClick={() => confirmDelete(t, t('admin.servers.deleteLauncherConfirm'), () => remove.mutate())}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={expanded ? t('admin.servers.hideDetails') : t('admin.servers.showDetails')}>
            <ActionIcon
              variant="subtle"
              onClick={onToggle}
              aria-expanded={expanded}
              aria-label={expanded ? t('admin.servers.hideDetails') : t('admin.servers.showDetails')}
            >
              {expanded ? <IconChevronUp size={18} /> : <IconChevronDown size={18} />}
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        {t('admin.servers.gpuAffinity')}: {launcher.gpuAffinity}
      </Text>
      <Collapse in={expanded}>
        <LauncherDetails launcher={launcher} />
      </Collapse>
    </Card>
  );
}
