/** Models registry (back-office.md §2 "Models page", §5, §8). Route: /admin/compute-compute-models-registry. */
import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Checkbox,
  Group,
  Loader,
  Menu,
  Modal,
  Popover,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useLocalStorage } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IconArrowDown,
  IconArrowUp,
  IconColumns,
  IconDots,
  IconEdit,
  IconFileDescription,
  IconInfoCircle,
  IconPhoto,
  IconPlus,
  IconSelector,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText, seconds } from '../common/format';
import { RichText } from '../common/RichText';
import { UserSearch } from '../common/UserSearch';
import { MODELS_KEY, modelsApi, type ComputeModel, type ManualLanguage, type ManualPosition, type ModelBody } from './api';
import { MODEL_COLUMNS, columnValue, sortModels, type ModelColumn } from './sort';
import { QueryState } from '../common/QueryState';

const COLUMNS_STORAGE_KEY = 'lamella.admin.models.columns';

function ModelForm({ model, onDone }: { model: ComputeModel | null; onDone: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const req = (v: string) => (v.trim() ? null : t('admin.models.required'));
  const form = useForm<ModelBody>({
    initialValues: {
      internalName: model?.internalName ?? '',
      routingPath: model?.routingPath ?? '',
      storagePath: model?.storagePath ?? '',
      displayName: model?.displayName ?? '',
      version: model?.version ?? '',
      accessType: model?.accessType ?? 'PRIVATE',
      isDefaultVisible: model?.isDefaultVisible ?? true,
    },
    validate: {
      internalName: req,
      routingPath: (v) => req(v) ?? (v.trim().startsWith('/') ? null : t('admin.models.routingPathStart')),
      storagePath: req,
      displayName: req,
      version: req,
    },
  });
  const save = useMutation({
    mutationFn: (v: ModelBody) => {
      const body = {
        ...v,
        internalName: v.internalName.trim(),
        routingPath: v.routingPath.trim(),
        storagePath: v.storagePath.trim(),
        displayName: v.displayName.trim(),
        version: v.version.trim(),
      };
      return model ? modelsApi.update(model.id, body) : modelsApi.create(body);
    },
    onSuccess: async () => {
      notifySuccess(model ? t('admin.models.modelUpdated') : t('admin.models.modelCreated'));
      await qc.invalidateQueries({ queryKey: MODELS_KEY });
      onDone();
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
      <Stack>
        <TextInput label={t('admin.models.internalName')} withAsterisk {...form.getInputProps('internalName')} />
        <TextInput label={t('admin.models.routingPath')} withAsterisk placeholder="/grain-size" {...form.getInputProps('routingPath')} />
        <TextInput label={t('admin.models.storagePath')} withAsterisk {...form.getInputProps('storagePath')} />
        <TextInput label={t('admin.models.displayName')} withAsterisk {...form.getInputProps('displayName')} />
        <TextInput label={t('admin.models.version')} withAsterisk {...form.getInputProps('version')} />
        <Select
          label={t('admin.models.accessType')}
          data={(['PRIVATE', 'PUBLIC'] as const).map((v) => ({ value: v, label: t(`admin.models.accessTypes.${v}`) }))}
          allowDeselect={false}
          {...form.getInputProps('accessType')}
        />
        <Switch label={t('admin.models.isDefaultVisible')} {...form.getInputProps('isDefaultVisible', { type: 'checkbox' })} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('admin.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function AccessTab({ model }: { model: ComputeModel }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['admin', 'model-access', model.id];
  const grants = useQuery({ queryKey: key, queryFn: () => modelsApi.access(model.id) });
  const [userId, setUserId] = useState<string | null>(null);
  const grant = useMutation({
    mutationFn: (id: string) => modelsApi.grant(model.id, id),
    onSuccess: async () => {
      notifySuccess(t('admin.models.accessGranted'));
      setUserId(null);
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => modelsApi.revoke(model.id, id),
    onSuccess: async () => {
      notifySuccess(t('admin.models.accessRevoked'));
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
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
        <Alert color="red">{errorText(grants.error, t('admin.error'))}</Alert>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('admin.models.noGrants')}
        </Text>
      ) : (
        <Stack gap={4}>
          {list.map((g) => (
            <Group key={g.id ?? g.userId} justify="space-between" wrap="nowrap">
              <Text size="sm" truncate>
                {[g.user?.name, g.user?.surname].filter(Boolean).join(' ') || g.user?.email || g.userId}
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

function ModelDialog({ model, opened, onClose }: { model: ComputeModel | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={model ? t('admin.models.editTitle') : t('admin.models.createTitle')} size="lg">
      <Tabs defaultValue="general">
        <Tabs.List mb="md">
          <Tabs.Tab value="general">{t('admin.models.general')}</Tabs.Tab>
          <Tabs.Tab value="access">{t('admin.models.access')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general">
          <ModelForm key={model?.id ?? 'new'} model={model} onDone={onClose} />
        </Tabs.Panel>
        <Tabs.Panel value="access">
          {model ? (
            <AccessTab model={model} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('admin.models.accessSaveFirst')}
            </Text>
          )}
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

const manualText = (v: { text?: string | null } | string | null | undefined) => (typeof v === 'string' ? v : (v?.text ?? ''));

function ManualDialog({ model, onClose }: { model: ComputeModel; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [position, setPosition] = useState<ManualPosition>('TOP');
  const [language, setLanguage] = useState<ManualLanguage>('en');
  const key = ['admin', 'model-manual', model.id, position, language];
  const manual = useQuery({ queryKey: key, queryFn: () => modelsApi.manual(model.id, position, language) });
  const [text, setText] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => modelsApi.saveManual(model.id, { text: text ?? manualText(manual.data), position, language }),
    onSuccess: async () => {
      notifySuccess(t('admin.models.manualUpdated'));
      await qc.invalidateQueries({ queryKey: key });
      await qc.invalidateQueries({ queryKey: ['model-manual', model.id] });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const change = (fn: () => void) => {
    setText(null);
    fn();
  };
  return (
    <Modal opened onClose={onClose} title={t('admin.models.manualTitle', { name: model.displayName })} size="xl">
      <Stack>
        <Group wrap="wrap" gap="md">
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('admin.models.position')}
            </Text>
            <SegmentedControl
              value={position}
              onChange={(v) => change(() => setPosition(v as ManualPosition))}
              data={(['TOP', 'BOTTOM'] as const).map((v) => ({ value: v, label: t(`admin.models.positions.${v}`) }))}
            />
          </div>
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('admin.models.language')}
            </Text>
            <SegmentedControl
              value={language}
              onChange={(v) => change(() => setLanguage(v as ManualLanguage))}
              data={(['en', 'de'] as const).map((v) => ({ value: v, label: t(`admin.models.languages.${v}`) }))}
            />
          </div>
        </Group>
        {manual.isPending ? (
          <Center p="lg">
            <Loader />
          </Center>
        ) : manual.isError ? (
          <Alert color="red">{errorText(manual.error, t('admin.error'))}</Alert>
        ) : (
          <RichText
            key={`${position}-${language}-${manual.dataUpdatedAt}`}
            value={manualText(manual.data)}
            onChange={setText}
            testId="manual-editor"
            minHeight={260}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin.close')}
          </Button>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={manual.isPending || manual.isError}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ExampleDialog({ model, onClose }: { model: ComputeModel; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const key = ['admin', 'model-example', model.id];
  const example = useQuery({ queryKey: key, queryFn: () => modelsApi.example(model.id) });
  const [en, setEn] = useState<string | null>(null);
  const [de, setDe] = useState<string | null>(null);
  const [errors, setErrors] = useState<{ en?: string; de?: string }>({});
  const save = useMutation({
    mutationFn: (body: { contentEn: string; contentDe: string }) => modelsApi.saveExample(model.id, body),
    onSuccess: async () => {
      notifySuccess(t('admin.models.exampleUpdated'));
      await qc.invalidateQueries({ queryKey: key });
      onClose();
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const submit = () => {
    const contentEn = en ?? example.data?.contentEn ?? '';
    const contentDe = de ?? example.data?.contentDe ?? '';
    const errs = {
      en: contentEn.replace(/<[^>]*>/g, '').trim() || /<img/i.test(contentEn) ? undefined : t('admin.models.contentRequired'),
      de: contentDe.replace(/<[^>]*>/g, '').trim() || /<img/i.test(contentDe) ? undefined : t('admin.models.contentRequired'),
    };
    setErrors(errs);
    if (!errs.en && !errs.de) save.mutate({ contentEn, contentDe });
  };
  return (
    <Modal opened onClose={onClose} title={t('admin.models.exampleTitle', { name: model.displayName })} size="xl">
      <Stack>
        <Alert color="blue" icon={<IconInfoCircle size={16} />}>
          {t('admin.models.exampleHint')}
        </Alert>
        {example.isPending ? (
          <Center p="lg">
            <Loader />
          </Center>
        ) : example.isError ? (
          <Alert color="red">{errorText(example.error, t('admin.error'))}</Alert>
        ) : (
          <>
            <RichText
              label={t('admin.models.contentEn')}
              value={example.data?.contentEn ?? ''}
              onChange={setEn}
              error={errors.en}
              testId="example-en"
            />
            <RichText
              label={t('admin.models.contentDe')}
              value={example.data?.contentDe ?? ''}
              onChange={setDe}
              error={errors.de}
              testId="example-de"
            />
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending} disabled={example.isPending || example.isError}>
            {t('admin.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function display(m: ComputeModel, c: ModelColumn, t: (k: string) => string): string {
  const v = columnValue(m, c);
  if (c === 'accessType') return t(`admin.models.accessTypes.${m.accessType}`);
  if (c === 'averageJobTime' || c === 'averageWaitTime') return v === null ? '—' : `${seconds(Number(v))} s`;
  return v === null ? '—' : String(v);
}

export function ModelsPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useQuery({ queryKey: MODELS_KEY, queryFn: modelsApi.list });
  const [columns, setColumns] = useLocalStorage<ModelColumn[]>({
    key: COLUMNS_STORAGE_KEY,
    defaultValue: [...MODEL_COLUMNS],
    getInitialValueInEffect: false,
  });
  const [sort, setSort] = useState<{ col: ModelColumn; order: 'asc' | 'desc' }>({ col: 'name', order: 'asc' });
  const [editing, setEditing] = useState<ComputeModel | null | 'new'>(null);
  const [manualFor, setManualFor] = useState<ComputeModel | null>(null);
  const [exampleFor, setExampleFor] = useState<ComputeModel | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => modelsApi.remove(id),
    onSuccess: async () => {
      notifySuccess(t('admin.models.modelDeleted'));
      await qc.invalidateQueries({ queryKey: MODELS_KEY });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const visible = MODEL_COLUMNS.filter((c) => c === 'name' || columns.includes(c));
  const rows = sortModels(models.data ?? [], sort.col, sort.order);
  const onSort = (col: ModelColumn) => setSort((s) => (s.col === col ? { col, order: s.order === 'asc' ? 'desc' : 'asc' } : { col, order: 'asc' }));
  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('admin.models.title')}</Title>
        <Group gap="xs">
          <Popover position="bottom-end" shadow="md">
            <Popover.Target>
              <Button variant="default" leftSection={<IconColumns size={16} />}>
                {t('admin.columns')}
              </Button>
            </Popover.Target>
            <Popover.Dropdown>
              <Stack gap={6}>
                {MODEL_COLUMNS.filter((c) => c !== 'name').map((c) => (
                  <Checkbox
                    key={c}
                    label={t(`admin.models.col.${c}`)}
                    checked={columns.includes(c)}
                    onChange={(e) => setColumns(e.currentTarget.checked ? [...columns, c] : columns.filter((x) => x !== c))}
                  />
                ))}
              </Stack>
            </Popover.Dropdown>
          </Popover>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('admin.models.add')}
          </Button>
        </Group>
      </Group>
      <QueryState query={models} empty={rows.length === 0} emptyText={t('admin.models.empty')}>
        <Table.ScrollContainer minWidth={Math.max(360, visible.length * 120 + 60)}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="models-table">
            <Table.Thead>
              <Table.Tr>
                {visible.map((c) => {
                  const Icon = sort.col !== c ? IconSelector : sort.order === 'asc' ? IconArrowUp : IconArrowDown;
                  return (
                    <Table.Th key={c}>
                      <UnstyledButton onClick={() => onSort(c)}>
                        <Group gap={4} wrap="nowrap">
                          <Text fw={600} size="sm">
                            {t(`admin.models.col.${c}`)}
                          </Text>
                          <Icon size={14} />
                        </Group>
                      </UnstyledButton>
                    </Table.Th>
                  );
                })}
                <Table.Th w={60}>
                  <Text fw={600} size="sm">
                    {t('admin.actions')}
                  </Text>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={m.id} data-model={m.internalName}>
                  {visible.map((c) => (
                    <Table.Td key={c}>{display(m, c, t)}</Table.Td>
                  ))}
                  <Table.Td>
                    <Menu position="bottom-end" withinPortal>
                      <Menu.Target>
                        <ActionIcon variant="subtle" aria-label={t('admin.actions')} data-testid={`model-actions-${m.internalName}`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => setEditing(m)}>
                          {t('admin.edit')}
                        </Menu.Item>
                        <Menu.Item leftSection={<IconFileDescription size={16} />} onClick={() => setManualFor(m)}>
                          {t('admin.models.info')}
                        </Menu.Item>
                        <Menu.Item leftSection={<IconPhoto size={16} />} onClick={() => setExampleFor(m)}>
                          {t('admin.models.example')}
                        </Menu.Item>
                        <Menu.Divider />
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} />}
                          onClick={() => confirmDelete(t, t('admin.models.deleteConfirm', { name: m.displayName }), () => remove.mutate(m.id))}
                        >
                          {t('admin.delete')}
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueryState>
      <ModelDialog model={editing === 'new' ? null : editing} opened={editing !== null} onClose={() => setEditing(null)} />
      {manualFor && <ManualDialog model={manualFor} onClose={() => setManualFor(null)} />}
      {exampleFor && <ExampleDialog model={exampleFor} onClose={() => setExampleFor(null)} />}
    </Stack>
  );
}
