/** The parents of a group in priority order (0 strongest): add, reorder, remove (back-office.md §4). */
import { ActionIcon, Badge, Button, Group, Paper, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText } from '../../../lib/errorText';
import { GROUPS_KEY, custApi } from './api';
import type { CustomizationGroup } from '@lamella/contracts';
import { parentCandidates, parentsBody, reorderParents, sortByPriority } from './logic';

export function Inheritance({ group, groups }: { group: CustomizationGroup; groups: CustomizationGroup[] }) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const [sameModel, setSameModel] = useState(true);
  const [choice, setChoice] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const parents = sortByPriority(group.parents ?? []);
  const nameOf = (id: string) => {
    const g = groups.find((x) => x.id === id) ?? parents.find((p) => p.parentId === id)?.parent;
    if (!g) return id;
    return (i18n.language === 'de' ? g.nameDe || g.nameEn : g.nameEn || g.nameDe) ?? id;
  };
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: GROUPS_KEY });
    await qc.invalidateQueries({ queryKey: ['admin', 'cust-resolved', group.id] });
  };
  const set = useMutation({
    mutationFn: (list: { parentId: string; priority: number }[]) => custApi.setParents(group.id, parentsBody(list)),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.parentsAdded'));
      setChoice(null);
      await refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.cust.addParentsFailed')),
  });
  const remove = useMutation({
    mutationFn: (parentId: string) => custApi.removeParent(group.id, parentId),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.parentRemoved'));
      await refresh();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.cust.removeParentFailed')),
  });
  const candidates = parentCandidates(
    groups,
    group,
    parents.map((p) => p.parentId),
    sameModel,
  );
  const move = (from: number, to: number) => set.mutate(reorderParents(parents, from, to));
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={5}>{t('admin.cust.inheritance')}</Title>
        <Switch size="xs" label={t('admin.cust.sameModelOnly')} checked={sameModel} onChange={(e) => setSameModel(e.currentTarget.checked)} />
      </Group>
      {parents.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.cust.noParents')}
        </Text>
      ) : (
        <>
          <Text size="xs" c="dimmed">
            {t('admin.cust.dragHint')}
          </Text>
          <Stack gap={4} data-testid="parents-list">
            {parents.map((p, i) => (
              <Paper
                key={p.parentId}
                withBorder
                p={6}
                draggable
                onDragStart={() => setDragFrom(i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={() => {
                  if (dragFrom !== null && dragFrom !== i) move(dragFrom, i);
                  setDragFrom(null);
                }}
                style={{ cursor: 'grab', opacity: dragFrom === i ? 0.5 : 1 }}
                data-testid="parent-item"
              >
                <Group gap={6} wrap="nowrap">
                  <IconGripVertical size={14} color="var(--mantine-color-gray-6)" />
                  <Badge size="xs" variant="light">
                    {i}
                  </Badge>
                  <Text size="sm" style={{ flex: 1, minWidth: 0 }} truncate>
                    {nameOf(p.parentId)}
                  </Text>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={i === 0 || set.isPending}
                    onClick={() => move(i, i - 1)}
                    aria-label={t('admin.cust.moveUp')}
                  >
                    <IconArrowUp size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    disabled={i === parents.length - 1 || set.isPending}
                    onClick={() => move(i, i + 1)}
                    aria-label={t('admin.cust.moveDown')}
                  >
                    <IconArrowDown size={14} />
                  </ActionIcon>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('admin.cust.removeParent')}
                    onClick={() => confirmDelete(t, `${t('admin.cust.removeParent')}: ${nameOf(p.parentId)}?`, () => remove.mutate(p.parentId))}
                  >
                    <IconX size={14} />
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
          </Stack>
        </>
      )}
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Select
          style={{ flex: 1, minWidth: 0 }}
          placeholder={t('admin.cust.parentPlaceholder')}
          aria-label={t('admin.cust.parentPlaceholder')}
          data={candidates.map((g) => ({ value: g.id, label: `${nameOf(g.id)}${sameModel ? '' : ` (${g.model?.displayName ?? ''})`}` }))}
          value={choice}
          onChange={setChoice}
          searchable
          clearable
          data-testid="parent-select"
        />
        <Button
          size="sm"
          disabled={!choice}
          loading={set.isPending}
          onClick={() => choice && set.mutate([...parents, { parentId: choice, priority: parents.length }])}
        >
          {t('admin.cust.addParent')}
        </Button>
      </Group>
    </Stack>
  );
}
