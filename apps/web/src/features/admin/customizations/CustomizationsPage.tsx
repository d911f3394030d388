/** Customization groups (back-office.md §2, §4 inheritance and settings editor, §5, §8). Route: /admin/customizations. */
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Grid,
  Group,
  List,
  Loader,
  Menu,
  Modal,
  NavLink,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IconArrowDown,
  IconArrowUp,
  IconCopy,
  IconDotsVertical,
  IconEdit,
  IconGripVertical,
  IconPlus,
  IconSearch,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText } from '../common/format';
import { JsonEditor } from '../common/JsonEditor';
import { UserSearch } from '../common/UserSearch';
import { adminJobsApi } from '../jobs/api';
import { GROUPS_KEY, custApi, modelIdOf, type CustomizationGroup, type GroupBody } from './api';
import { groupValidationErrors, parentCandidates, parentsBody, parseJson, reorderParents, sortByPriority, type ErrorGroup } from './logic';
import { QueryState } from '../common/QueryState';

const useModels = () => useQuery({ queryKey: ['admin', 'models-short'], queryFn: adminJobsApi.models, staleTime: 60_000 });

function GroupFormModal({
  group,
  opened,
  onClose,
  onSaved,
}: {
  group: CustomizationGroup | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (g: CustomizationGroup | undefined) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useModels();
  const form = useForm({
    initialValues: {
      nameEn: group?.nameEn ?? '',
      nameDe: group?.nameDe ?? '',
      modelId: group ? modelIdOf(group) : '',
      description: group?.description ?? '',
    },
    validate: {
      nameEn: (v) => (v.trim() ? null : t('admin.cust.nameRequired')),
      nameDe: (v) => (v.trim() ? null : t('admin.cust.nameRequired')),
      modelId: (v) => (v ? null : t('admin.cust.modelRequired')),
    },
  });
  const save = useMutation({
    mutationFn: (v: typeof form.values) => {
      const body: GroupBody = { nameEn: v.nameEn.trim(), nameDe: v.nameDe.trim(), modelId: v.modelId, description: v.description.trim() };
      return group ? custApi.update(group.id, body) : custApi.create(body);
    },
    onSuccess: async (g) => {
      notifySuccess(group ? t('admin.cust.groupEdited') : t('admin.cust.groupCreated'));
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
      form.reset();
      onSaved(g);
      onClose();
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={group ? t('admin.cust.editTitle') : t('admin.cust.createTitle')}>
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        <Stack>
          <TextInput label={t('admin.cust.nameEn')} withAsterisk {...form.getInputProps('nameEn')} />
          <TextInput label={t('admin.cust.nameDe')} withAsterisk {...form.getInputProps('nameDe')} />
          <Select
            label={t('admin.cust.model')}
            withAsterisk
            searchable
            data={(models.data ?? []).map((m) => ({ value: m.id, label: m.displayName ?? m.name ?? m.id }))}
            {...form.getInputProps('modelId')}
            value={form.values.modelId || null}
            onChange={(v) => form.setFieldValue('modelId', v ?? '')}
          />
          <Textarea label={t('admin.cust.description')} autosize minRows={2} {...form.getInputProps('description')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {group ? t('admin.save') : t('admin.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function GroupList({
  groups,
  selected,
  onSelect,
  onNew,
}: {
  groups: CustomizationGroup[];
  selected: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const name = (g: CustomizationGroup) => (i18n.language === 'de' ? g.nameDe || g.nameEn : g.nameEn || g.nameDe);
  const byModel = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = groups.filter(
      (g) => !q || [g.nameEn, g.nameDe, g.description ?? '', g.model?.displayName ?? ''].some((s) => s.toLowerCase().includes(q)),
    );
    const map = new Map<string, { label: string; items: CustomizationGroup[] }>();
    for (const g of list) {
      const key = modelIdOf(g);
      const entry = map.get(key) ?? { label: g.model?.displayName ?? key, items: [] };
      entry.items.push(g);
      map.set(key, entry);
    }
    return [...map.values()].sort((a, b) => a.label.localeCompare(b.label));
  }, [groups, search]);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Button leftSection={<IconPlus size={16} />} onClick={onNew} fullWidth>
          {t('admin.cust.newGroup')}
        </Button>
        <TextInput
          placeholder={t('admin.cust.search')}
          aria-label={t('admin.cust.search')}
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <ScrollArea.Autosize mah={520}>
          {byModel.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" p="sm">
              {t('admin.cust.noGroups')}
            </Text>
          ) : (
            byModel.map((m) => (
              <div key={m.label}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="xs" mb={2}>
                  {m.label}
                </Text>
                {m.items.map((g) => (
                  <NavLink
                    key={g.id}
                    label={name(g)}
                    active={g.id === selected}
                    onClick={() => onSelect(g.id)}
                    style={{ borderRadius: 4 }}
                    data-testid="cust-group"
                  />
                ))}
              </div>
            ))
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}

function Members({ group }: { group: CustomizationGroup }) {
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
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const remove = useMutation({
    mutationFn: (id: string) => custApi.removeMember(group.id, id),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.memberRemoved'));
      await refresh();
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
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

function Inheritance({ group, groups }: { group: CustomizationGroup; groups: CustomizationGroup[] }) {
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
    onError: (e) => notifyError(errorText(e, t('admin.cust.addParentsFailed'))),
  });
  const remove = useMutation({
    mutationFn: (parentId: string) => custApi.removeParent(group.id, parentId),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.parentRemoved'));
      await refresh();
    },
    onError: (e) => notifyError(errorText(e, t('admin.cust.removeParentFailed'))),
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

function GroupDetails({
  group,
  groups,
  onEdit,
  onGone,
  onCloned,
}: {
  group: CustomizationGroup;
  groups: CustomizationGroup[];
  onEdit: () => void;
  onGone: () => void;
  onCloned: (id: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const clone = useMutation({
    mutationFn: () => custApi.clone(group.id),
    onSuccess: async (g) => {
      notifySuccess(t('admin.cust.groupCloned'));
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
      onCloned(g?.id);
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const remove = useMutation({
    mutationFn: () => custApi.remove(group.id),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.groupDeleted'));
      onGone();
      await qc.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (e) => notifyError(errorText(e, t('admin.cust.deleteFailed'))),
  });
  return (
    <Paper withBorder p="sm" data-testid="group-details">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed" fw={700} tt="uppercase">
              {t('admin.cust.groupInfo')}
            </Text>
            <Title order={4} style={{ wordBreak: 'break-word' }}>
              {group.nameEn}
            </Title>
            <Text size="sm" c="dimmed">
              {group.nameDe}
            </Text>
          </div>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="light" aria-label={t('admin.cust.groupInfo')} data-testid="group-menu">
                <IconDotsVertical size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconEdit size={14} />} onClick={onEdit}>
                {t('admin.edit')}
              </Menu.Item>
              <Menu.Item leftSection={<IconCopy size={14} />} onClick={() => clone.mutate()}>
                {t('admin.cust.clone')}
              </Menu.Item>
              <Menu.Item
                color="red"
                leftSection={<IconTrash size={14} />}
                onClick={() => confirmDelete(t, t('admin.cust.deleteConfirm'), () => remove.mutate())}
              >
                {t('admin.delete')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
        <div>
          <Text size="sm">
            <Text span c="dimmed">
              {t('admin.cust.model')}:{' '}
            </Text>
            {group.model?.displayName ?? modelIdOf(group)}
          </Text>
          {group.description && (
            <Text size="sm" mt={4} style={{ wordBreak: 'break-word' }}>
              {group.description}
            </Text>
          )}
        </div>
        <Members group={group} />
        <Inheritance group={group} groups={groups} />
      </Stack>
    </Paper>
  );
}

function ValidationModal({ errors, onClose }: { errors: ErrorGroup[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={errors !== null} onClose={onClose} title={t('admin.cust.validationFailedTitle')} size="lg">
      <Stack gap="sm" data-testid="validation-errors">
        {(errors ?? []).map((g) => (
          <div key={g.path || '_'}>
            <Text fw={600} size="sm">
              {g.label}
            </Text>
            <List size="sm" withPadding>
              {g.messages.map((m) => (
                <List.Item key={m}>{m}</List.Item>
              ))}
            </List>
          </div>
        ))}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('admin.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SettingsEditor({ group }: { group: CustomizationGroup | null }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [tab, setTab] = useState<string | null>('input');
  const [text, setText] = useState('{}');
  const [errors, setErrors] = useState<ErrorGroup[] | null>(null);
  const gid = group?.id ?? '';
  const settings = useQuery({ queryKey: ['admin', 'cust-settings', gid], queryFn: () => custApi.settings(gid), enabled: !!group });
  const resolved = useQuery({
    queryKey: ['admin', 'cust-resolved', gid],
    queryFn: () => custApi.resolved(gid),
    enabled: !!group && tab === 'resolved',
  });
  useEffect(() => {
    if (settings.data !== undefined) setText(JSON.stringify(settings.data ?? {}, null, 2));
  }, [settings.data, gid]);
  useEffect(() => {
    if (!group) setText('{}');
  }, [group]);
  const parsed = parseJson(text);
  const modelId = group ? modelIdOf(group) : '';
  const defaults = useMutation({
    mutationFn: () => custApi.defaults(modelId),
    onSuccess: (d) => {
      setText(JSON.stringify(d.defaults ?? {}, null, 2));
      setTab('input');
    },
    onError: (e) => notifyError(errorText(e, t('admin.cust.defaultsFailed'))),
  });
  const validate = useMutation({
    mutationFn: () => custApi.validate({ modelId, groupId: gid, settings: parsed.ok ? parsed.value : {} }),
    onSuccess: (r) => {
      if (!r || (Array.isArray(r) && r.length === 0)) {
        notifySuccess(t('admin.cust.valid'));
        return;
      }
      setErrors(groupValidationErrors(r, { general: t('admin.cust.generalError'), item: (n) => t('admin.cust.item', { n }) }));
    },
    onError: (e) => notifyError(errorText(e, t('admin.cust.validationFailed'))),
  });
  const save = useMutation({
    mutationFn: () => custApi.saveSettings(gid, parsed.ok ? parsed.value : {}),
    onSuccess: async () => {
      notifySuccess(t('admin.cust.settingsUpdated'));
      await qc.invalidateQueries({ queryKey: ['admin', 'cust-settings', gid] });
      await qc.invalidateQueries({ queryKey: ['admin', 'cust-resolved'] });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={5}>{t('admin.cust.settings')}</Title>
          <Group gap="xs" wrap="wrap">
            <Button size="xs" variant="default" disabled={!group} loading={defaults.isPending} onClick={() => defaults.mutate()}>
              {t('admin.cust.getDefaults')}
            </Button>
            <Button size="xs" variant="light" disabled={!group || !parsed.ok} loading={validate.isPending} onClick={() => validate.mutate()}>
              {t('admin.cust.validate')}
            </Button>
            <Button size="xs" disabled={!group || !parsed.ok} loading={save.isPending} onClick={() => save.mutate()}>
              {t('admin.cust.saveSettings')}
            </Button>
          </Group>
        </Group>
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab value="input">{t('admin.cust.userInput')}</Tabs.Tab>
            <Tabs.Tab value="resolved" disabled={!group}>
              {t('admin.cust.resolved')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="input" pt="xs">
            {group && settings.isPending ? (
              <Center p="lg">
                <Loader size="sm" />
              </Center>
            ) : (
              <>
                <JsonEditor value={text} onChange={setText} readOnly={!group} testId="settings-editor" label={t('admin.cust.userInput')} />
                {!parsed.ok && (
                  <Text c="red" size="sm" mt={4} data-testid="json-error">
                    {t('admin.invalidJson')}
                  </Text>
                )}
              </>
            )}
          </Tabs.Panel>
          <Tabs.Panel value="resolved" pt="xs">
            {resolved.isPending ? (
              <Center p="lg">
                <Loader size="sm" />
              </Center>
            ) : resolved.isError ? (
              <Alert color="red">{errorText(resolved.error, t('admin.error'))}</Alert>
            ) : (
              <JsonEditor value={JSON.stringify(resolved.data ?? {}, null, 2)} readOnly testId="resolved-editor" label={t('admin.cust.resolved')} />
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>
      <ValidationModal errors={errors} onClose={() => setErrors(null)} />
    </Paper>
  );
}

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
      <QueryState query={groups}>
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
      </QueryState>
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
