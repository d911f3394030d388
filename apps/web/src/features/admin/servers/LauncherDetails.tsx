import { Stack, Text } from '@mantine/core';
import type { Launcher } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime } from '../../../lib/format';

/** The expanded part of a launcher card: id, last contact, reported models, failure, environment. */
export function LauncherDetails({ launcher }: { launcher: Launcher }) {
  const { t } = useTranslation();
  const env = Object.keys(launcher.envVariables).length ? JSON.stringify(launcher.envVariables, null, 2) : '{}';
  return (
    <Stack gap={4} mt="xs">
      <Text size="xs">
        {t('admin.servers.launcherId')}:{' '}
        <Text span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
          {launcher.id}
        </Text>
      </Text>
      <Text size="xs">
        {t('admin.servers.lastSeen')}: {launcher.lastSeenAt ? formatAdminDateTime(launcher.lastSeenAt) : t('admin.servers.never')}
      </Text>
      {launcher.reportedModels.length > 0 && (
        <Text size="xs">
          {t('admin.servers.models')}: {launcher.reportedModels.map((m) => m.name).join(', ')}
        </Text>
      )}
      {launcher.failure && (
        <Text size="xs" c="red" style={{ wordBreak: 'break-word' }} data-testid="launcher-failure">
          {t('compute.servers.failureReason')}: {launcher.failure}
        </Text>
      )}
      <Text size="xs">{t('admin.servers.envVariables')}:</Text>
      <Text component="pre" size="xs" ff="monospace" m={0} p={6} bg="gray.0" style={{ overflowX: 'auto' }}>
        {env}
      </Text>
    </Stack>
  );
}
