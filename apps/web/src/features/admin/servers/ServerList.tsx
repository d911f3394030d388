import { Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import type { ComputeNode } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Description } from './Description';
import { StatusBadge } from './StatusBadge';

/** The servers on the left: name, status, IP, description, launcher count. */
export function ServerList({ nodes, selected, onSelect }: { nodes: ComputeNode[]; selected: string | null; onSelect: (id: string) => void }) {
  const { t } = useTranslation();
  if (nodes.length === 0) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed" ta="center">
          {t('admin.servers.noServers')}
        </Text>
      </Paper>
    );
  }
  return (
    <Stack gap="xs" data-testid="server-list">
      {nodes.map((n) => (
        <UnstyledButton key={n.id} onClick={() => onSelect(n.id)} aria-current={selected === n.id ? 'true' : undefined}>
          <Paper
            withBorder
            p="sm"
            style={{
              borderColor: selected === n.id ? 'var(--mantine-color-blue-5)' : undefined,
              background: selected === n.id ? 'var(--mantine-color-blue-0)' : undefined,
            }}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600} truncate>
                {n.name}
              </Text>
              <StatusBadge status={n.status} />
            </Group>
            <Text size="sm" ff="monospace">
              {n.ip}
            </Text>
            <Description text={n.description} />
            <Text size="xs" c="dimmed" mt={4}>
              {t('admin.servers.launcherCount', { count: n.executors.length })}
            </Text>
          </Paper>
        </UnstyledButton>
      ))}
    </Stack>
  );
}
