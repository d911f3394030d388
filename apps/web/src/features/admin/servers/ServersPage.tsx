/** Servers and launchers (back-office.md §2 "Servers screen", §4, §5, §8). Route: /admin/resources. */
import { Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListState } from '../../../components/ListState';
import { AddServerModal } from './AddServerModal';
import { useLauncherVersions, useNodes } from './api';
import { parseIdList, toggleId } from './logic';
import { ServerDetails } from './ServerDetails';
import { ServerList } from './ServerList';
import { UpdateAllModal } from './UpdateAllModal';

export function ServersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [addingServer, setAddingServer] = useState(false);
  const [updatingAll, setUpdatingAll] = useState(false);
  const nodes = useNodes();
  const versions = useLauncherVersions();
  const selectedId = params.get('server');
  const expanded = parseIdList(params.get('expanded'));
  const list = nodes.data ?? [];
  const selected = list.find((n) => n.id === selectedId) ?? null;
  const setParam = (key: string, value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('admin.servers.title')}</Title>
        <Group gap="xs">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAddingServer(true)}>
            {t('admin.servers.addServer')}
          </Button>
          <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => setUpdatingAll(true)}>
            {t('admin.servers.updateAll')}
          </Button>
        </Group>
      </Group>
      <ListState query={nodes} errorTitle={t('admin.servers.errorTitle')}>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <ServerList nodes={list} selected={selectedId} onSelect={(id) => setParam('server', id)} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {selected ? (
              <ServerDetails
                node={selected}
                versions={versions.data ?? []}
                expanded={expanded}
                onToggle={(id) => setParam('expanded', toggleId(expanded, id).join(',') || null)}
                onDeleted={() => setParam('server', null)}
              />
            ) : (
              <Paper withBorder p="xl">
                <Text c="dimmed" ta="center">
                  {t('admin.servers.selectServer')}
                </Text>
              </Paper>
            )}
          </Grid.Col>
        </Grid>
      </ListState>
      <AddServerModal opened={addingServer} onClose={() => setAddingServer(false)} onCreated={(id) => setParam('server', id)} />
      <UpdateAllModal opened={updatingAll} onClose={() => setUpdatingAll(false)} />
    </Stack>
  );
}
