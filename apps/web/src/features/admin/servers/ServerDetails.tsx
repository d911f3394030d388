import { Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ComputeNode } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddLauncherModal } from './AddLauncherModal';
import { LauncherCard } from './LauncherCard';
import { RegistrationTokens } from './RegistrationTokens';
import { ServerActions } from './ServerActions';
import { ServerInfo } from './ServerInfo';
import { StatusBadge } from './StatusBadge';

export interface ServerDetailsProps {
  node: ComputeNode;
  versions: string[];
  expanded: string[];
  onToggle: (id: string) => void;
  onDeleted: () => void;
}

/** The selected server on the right: its data and actions, then its launchers. */
export function ServerDetails({ node, versions, expanded, onToggle, onDeleted }: ServerDetailsProps) {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const offline = node.status === 'OFFLINE';
  return (
    <Stack gap="md" data-testid="server-details">
      <Paper withBorder p="md">
        <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
          <Group gap="xs" wrap="wrap">
            <Title order={3} style={{ wordBreak: 'break-word' }}>
              {node.name}
            </Title>
            <StatusBadge status={node.status} />
          </Group>
          <ServerActions node={node} onDeleted={onDeleted} />
        </Group>
        <ServerInfo node={node} />
      </Paper>
      <Group justify="space-between">
        <Title order={4}>{t('admin.servers.launchers')}</Title>
        <Tooltip label={t('admin.servers.addLauncherOffline')} disabled={!offline}>
          <Button size="xs" leftSection={<IconPlus size={14} />} disabled={offline} onClick={() => setAdding(true)}>
            {t('admin.servers.addLauncher')}
          </Button>
        </Tooltip>
      </Group>
      {node.executors.length === 0 ? (
        <Text c="dimmed">{t('admin.servers.noLaunchers')}</Text>
      ) : (
        <Stack gap="xs">
          {node.executors.map((e) => (
            <LauncherCard key={e.id} launcher={e} expanded={expanded.includes(e.id)} onToggle={() => onToggle(e.id)} />
          ))}
        </Stack>
      )}
      <RegistrationTokens node={node} />
      <AddLauncherModal node={node} opened={adding} onClose={() => setAdding(false)} versions={versions} />
    </Stack>
  );
}
