/** Customization groups (back-office.md §2, §4 inheritance and settings editor, §5, §8). Route: /admin/customizations. */
import { Grid, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GROUPS_KEY, custApi } from './api';
import { ListState } from '../../../components/ListState';
import { GroupFormModal } from './GroupFormModal';
import { GroupList } from './GroupList';
import { GroupDetails } from './GroupDetails';
import { SettingsEditor } from './SettingsEditor';

export function CustomizationsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const groups = useQuery({ queryKey: GROUPS_KEY, queryFn: custApi.groups });
  const [form, setForm] = useState<'new' | 'edit' | null>(null);
  const selectedId = params.get('group');
  const list = groups.data ?? [];
  const selected = list.find((g) => g.id === selectedId) ?? null;
  const select = (id: string | null | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (id) next.set('group', id);
        else next.delete('group');
        return next;
      },
      { replace: true },
    );
  return (
    <Stack gap="md">
      <Title order={2}>{t('admin.cust.title')}</Title>
      <ListState query={groups}>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 6, lg: 3 }}>
            <GroupList groups={list} selected={selectedId} onSelect={select} onNew={() => setForm('new')} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
            {selected ? (
              <GroupDetails
                key={selected.id}
                group={selected}
                groups={list}
                onEdit={() => setForm('edit')}
                onGone={() => select(null)}
                onCloned={select}
              />
            ) : (
              <Paper withBorder p="xl">
                <Text c="dimmed" ta="center">
                  {t('admin.cust.placeholder')}
                </Text>
              </Paper>
            )}
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <SettingsEditor key={selected?.id ?? 'none'} group={selected} />
          </Grid.Col>
        </Grid>
      </ListState>
      <GroupFormModal
        key={form === 'edit' ? (selected?.id ?? 'x') : 'new'}
        group={form === 'edit' ? selected : null}
        opened={form !== null}
        onClose={() => setForm(null)}
        onSaved={(g) => form === 'new' && select(g?.id)}
      />
    </Stack>
  );
}
