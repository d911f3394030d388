/** Servers and launchers (back-office.md §2 "Servers screen", §4, §5, §8). Route: /admin/resources. */
import {
  ActionIcon,
  Alert,
  Autocomplete,
  Badge,
  Button,
  Card,
  Collapse,
  Grid,
  Group,
  JsonInput,
  Modal,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IconChevronDown,
  IconChevronUp,
  IconPlayerPlay,
  IconPlayerStop,
  IconPlugConnected,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText, formatDateTime } from '../common/format';
import { NODES_KEY, nodesApi, type ComputeNode, type Executor } from './api';
import { cloudButtons, isBeta, isIPv4, launcherState, parseEnv, parseIdList, statusKey, toggleId, truncate } from './logic';
import { QueryState } from '../common/QueryState';

const STATUS_COLOR = { ONLINE: 'green', OFFLINE: 'red', UNKNOWN: 'gray' } as const;
const STATE_COLOR = { running: 'green', updating: 'yellow', stopped: 'gray' } as const;
const NODES_REFRESH_MS = 15_000;

function StatusBadge({ status }: { status: string | null }) {
  const { t } = useTranslation();
  const key = statusKey(status);
  return (
    <Badge color={STATUS_COLOR[key]} variant="light" data-testid="node-status">
      {t(`admin.servers.status.${key}`)}
    </Badge>
  );
}

function Description({ text }: { text: string }) {
  const { t } = useTranslation();
  if (!text?.trim()) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('admin.servers.noDescription')}
      </Text>
    );
  }
  const d = truncate(text, 50);
  const body = (
    <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
      {d.text}
    </Text>
  );
  return d.truncated ? (
    <Tooltip label={text} multiline maw={320} withArrow>
      {body}
    </Tooltip>
  ) : (
    body
  );
}

function ServerList({ nodes, selected, onSelect }: { nodes: ComputeNode[]; selected: string | null; onSelect: (id: string) => void }) {
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
              {t('admin.servers.launcherCount', { count: n.executors?.length ?? 0 })}
            </Text>
          </Paper>
        </UnstyledButton>
      ))}
    </Stack>
  );
}

function LauncherCard({ executor, expanded, onToggle }: { executor: Executor; expanded: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const state = launcherState(executor);
  const test = useMutation({
    mutationFn: () => nodesApi.testExecutor(executor.id),
    onSuccess: (r) => (r?.isConnected ? notifySuccess(t('admin.servers.testOk')) : notifyError(t('admin.servers.testFailed'))),
    onError: () => notifyError(t('admin.servers.testFailed')),
    // the server records the launcher's answer (last seen, models): show it now rather than at the next refresh
    onSettled: () => qc.invalidateQueries({ queryKey: NODES_KEY }),
  });
  const remove = useMutation({
    mutationFn: () => nodesApi.removeExecutor(executor.id),
    onSuccess: () => {
      notifySuccess(t('admin.servers.launcherDeleted'));
      return qc.invalidateQueries({ queryKey: NODES_KEY });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const env = executor.envVariables && Object.keys(executor.envVariables).length ? JSON.stringify(executor.envVariables, null, 2) : '{}';
  return (
    <Card withBorder padding="sm" data-testid="launcher-card" data-launcher-id={executor.id}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>:{executor.port}</Text>
          <Badge color={STATE_COLOR[state]} variant="light" data-testid="launcher-state">
            {t(`admin.servers.launcherState.${state}`)}
          </Badge>
          <Badge variant="outline" color="gray" tt="none">
            v{executor.version}
          </Badge>
          {isBeta(executor.version) && (
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
        {t('admin.servers.gpuAffinity')}: {executor.gpuAffinity}
      </Text>
      <Collapse in={expanded}>
        <Stack gap={4} mt="xs">
          <Text size="xs">
            {t('admin.servers.launcherId')}:{' '}
            <Text span ff="monospace" size="xs" style={{ wordBreak: 'break-all' }}>
              {executor.id}
            </Text>
          </Text>
          <Text size="xs">
            {t('admin.servers.lastSeen')}: {executor.lastSeenAt ? formatDateTime(executor.lastSeenAt) : t('admin.servers.never')}
          </Text>
          {Array.isArray(executor.reportedModels) && executor.reportedModels.length > 0 && (
            <Text size="xs">
              {t('admin.servers.models')}:{' '}
              {executor.reportedModels.map((m) => (typeof m === 'string' ? m : ((m as { name?: string }).name ?? JSON.stringify(m)))).join(', ')}
            </Text>
          )}
          <Text size="xs">{t('admin.servers.envVariables')}:</Text>
          <Text component="pre" size="xs" ff="monospace" m={0} p={6} bg="gray.0" style={{ overflowX: 'auto' }}>
            {env}
          </Text>
        </Stack>
      </Collapse>
    </Card>
  );
}

function AddServerModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (id: string) => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const req = (v: string) => (v.trim() ? null : t('admin.servers.required'));
  const form = useForm({
    initialValues: { name: '', ip: '', description: '', nodeType: 'ON_PREMISE' as 'ON_PREMISE' | 'CLOUD', provider: '', instanceId: '' },
    validate: {
      name: req,
      ip: (v) => (!v.trim() ? t('admin.servers.required') : isIPv4(v) ? null : t('admin.servers.invalidIp')),
      description: req,
      provider: (v, values) => (values.nodeType === 'CLOUD' ? req(v) : null),
      instanceId: (v, values) => (values.nodeType === 'CLOUD' ? req(v) : null),
    },
  });
  const create = useMutation({
    mutationFn: () => {
      const v = form.values;
      return nodesApi.create({
        name: v.name.trim(),
        ip: v.ip.trim(),
        description: v.description.trim(),
        nodeType: v.nodeType,
        ...(v.nodeType === 'CLOUD' ? { provider: v.provider, instanceId: v.instanceId.trim() } : {}),
      });
    },
    onSuccess: async (node) => {
      notifySuccess(t('admin.servers.serverCreated'));
      await qc.invalidateQueries({ queryKey: NODES_KEY });
      form.reset();
      onClose();
      if (node?.id) onCreated(node.id);
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const cloud = form.values.nodeType === 'CLOUD';
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.servers.addServerTitle')}>
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          <TextInput label={t('admin.servers.name')} withAsterisk {...form.getInputProps('name')} />
          <TextInput label={t('admin.servers.ip')} withAsterisk placeholder="192.168.0.10" {...form.getInputProps('ip')} />
          <Textarea label={t('admin.servers.description')} withAsterisk autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label={t('admin.servers.nodeType')}
            data={(['ON_PREMISE', 'CLOUD'] as const).map((v) => ({ value: v, label: t(`admin.servers.nodeTypes.${v}`) }))}
            allowDeselect={false}
            {...form.getInputProps('nodeType')}
            onChange={(v) => {
              form.setFieldValue('nodeType', (v ?? 'ON_PREMISE') as 'ON_PREMISE' | 'CLOUD');
              if (v !== 'CLOUD') {
                form.setFieldValue('provider', '');
                form.setFieldValue('instanceId', '');
                form.clearFieldError('provider');
                form.clearFieldError('instanceId');
              }
            }}
          />
          <Select
            label={t('admin.servers.provider')}
            data={[{ value: 'OVH', label: 'OVH' }]}
            disabled={!cloud}
            withAsterisk={cloud}
            {...form.getInputProps('provider')}
            value={form.values.provider || null}
            onChange={(v) => form.setFieldValue('provider', v ?? '')}
          />
          <TextInput label={t('admin.servers.instanceId')} disabled={!cloud} withAsterisk={cloud} {...form.getInputProps('instanceId')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('admin.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function AddLauncherModal({ node, opened, onClose, versions }: { node: ComputeNode; opened: boolean; onClose: () => void; versions: string[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { version: '', port: 8000 as number | string, gpuAffinity: 0 as number | string, envVariables: '' },
    validate: {
      version: (v) => (v.trim() ? null : t('admin.servers.required')),
      envVariables: (v) => (parseEnv(v) ? null : t('admin.invalidJson')),
    },
    validateInputOnChange: ['envVariables'],
  });
  const create = useMutation({
    mutationFn: () =>
      nodesApi.createExecutor({
        version: form.values.version.trim(),
        port: Number(form.values.port) || 8000,
        gpuAffinity: Math.max(0, Number(form.values.gpuAffinity) || 0),
        envVariables: parseEnv(form.values.envVariables) ?? {},
        nodeId: node.id,
      }),
    onSuccess: async () => {
      notifySuccess(t('admin.servers.executorDeployed'));
      await qc.invalidateQueries({ queryKey: NODES_KEY });
      form.reset();
      setServerError(null);
      onClose();
    },
    onError: (e) => {
      setServerError(errorText(e, t('admin.servers.executorDeployFailed')));
      notifyError(t('admin.servers.executorDeployFailed'));
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={() => {
        setServerError(null);
        onClose();
      }}
      title={t('admin.servers.addLauncherTitle')}
    >
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          {serverError && (
            <Alert color="red" title={t('admin.servers.errorTitle')} data-testid="launcher-error">
              {serverError}
            </Alert>
          )}
          <Autocomplete
            label={t('admin.servers.version')}
            placeholder={t('admin.servers.versionPlaceholder')}
            withAsterisk
            data={versions}
            {...form.getInputProps('version')}
          />
          <NumberInput label={t('admin.servers.port')} min={1} max={65535} allowDecimal={false} {...form.getInputProps('port')} />
          <NumberInput
            label={t('admin.servers.gpuAffinity')}
            min={0}
            allowNegative={false}
            allowDecimal={false}
            {...form.getInputProps('gpuAffinity')}
          />
          <JsonInput
            label={t('admin.servers.envVariables')}
            placeholder={t('admin.servers.envPlaceholder')}
            validationError={t('admin.invalidJson')}
            autosize
            minRows={3}
            {...form.getInputProps('envVariables')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} disabled={!form.values.version.trim()}>
              {t('admin.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function UpdateAllModal({ opened, onClose, versions }: { opened: boolean; onClose: () => void; versions: string[] }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [version, setVersion] = useState<string | null>(null);
  const update = useMutation({
    mutationFn: () => nodesApi.updateAll(version!),
    onSuccess: async () => {
      notifySuccess(t('admin.servers.executorsUpdated'));
      await qc.invalidateQueries({ queryKey: NODES_KEY });
      onClose();
    },
    onError: (e) => notifyError(errorText(e, t('admin.servers.executorsUpdateFailed'))),
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.servers.updateAllTitle')}>
      <Stack>
        <Text size="sm">{t('admin.servers.updateAllText')}</Text>
        <Select
          label={t('admin.servers.version')}
          placeholder={t('admin.servers.versionPlaceholder')}
          data={versions}
          value={version}
          onChange={setVersion}
          searchable
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('admin.cancel')}
          </Button>
          <Button disabled={!version} loading={update.isPending} onClick={() => update.mutate()}>
            {t('admin.servers.update')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ServerDetails({
  node,
  versions,
  expanded,
  onToggle,
  onDeleted,
}: {
  node: ComputeNode;
  versions: string[];
  expanded: string[];
  onToggle: (id: string) => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState(false);
  const offline = node.status === 'OFFLINE';
  const refresh = () => qc.invalidateQueries({ queryKey: NODES_KEY });
  const start = useMutation({
    mutationFn: () => nodesApi.start(node.id),
    onMutate: () => setPending(true),
    onSuccess: () => notifySuccess(t('admin.servers.nodeStarting')),
    onError: () => notifyError(t('admin.servers.nodeStartFailed')),
    onSettled: async () => {
      await refresh();
      setPending(false);
    },
  });
  const stop = useMutation({
    mutationFn: () => nodesApi.stop(node.id),
    onMutate: () => setPending(true),
    onSuccess: () => notifySuccess(t('admin.servers.nodeStopping')),
    onError: () => notifyError(t('admin.servers.nodeStopFailed')),
    onSettled: async () => {
      await refresh();
      setPending(false);
    },
  });
  const remove = useMutation({
    mutationFn: () => nodesApi.remove(node.id),
    onSuccess: async () => {
      notifySuccess(t('admin.servers.serverDeleted'));
      onDeleted();
      await refresh();
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const buttons = cloudButtons(node.status, pending || !!node.transition);
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
          <Group gap="xs" wrap="wrap">
            {node.nodeType === 'CLOUD' && (
              <>
                <Button
                  size="xs"
                  variant="light"
                  color="green"
                  leftSection={<IconPlayerPlay size={14} />}
                  disabled={buttons.startDisabled}
                  loading={start.isPending}
                  onClick={() => start.mutate()}
                >
                  {t('admin.servers.start')}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="orange"
                  leftSection={<IconPlayerStop size={14} />}
                  disabled={buttons.stopDisabled}
                  loading={stop.isPending}
                  onClick={() => stop.mutate()}
                >
                  {t('admin.servers.stop')}
                </Button>
              </>
            )}
            <Button
              size="xs"
              variant="light"
              color="red"
              leftSection={<IconTrash size={14} />}
              loading={remove.isPending}
              onClick={() => confirmDelete(t, t('admin.servers.deleteServerConfirm', { name: node.name }), () => remove.mutate())}
            >
              {t('admin.servers.deleteServer')}
            </Button>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          <Text size="sm">
            <Text span c="dimmed">
              {t('admin.servers.ip')}:{' '}
            </Text>
            <Text span ff="monospace">
              {node.ip}
            </Text>
          </Text>
          <Text size="sm">
            <Text span c="dimmed">
              {t('admin.servers.nodeType')}:{' '}
            </Text>
            {t(`admin.servers.nodeTypes.${node.nodeType === 'CLOUD' ? 'CLOUD' : 'ON_PREMISE'}`)}
          </Text>
          {node.nodeType === 'CLOUD' && (
            <>
              <Text size="sm">
                <Text span c="dimmed">
                  {t('admin.servers.provider')}:{' '}
                </Text>
                {node.provider ?? '—'}
              </Text>
              <Text size="sm">
                <Text span c="dimmed">
                  {t('admin.servers.instanceId')}:{' '}
                </Text>
                {node.instanceId ?? '—'}
              </Text>
            </>
          )}
        </SimpleGrid>
        <Text
          size="sm"
          mt="xs"
          c={node.description?.trim() ? undefined : 'dimmed'}
          fs={node.description?.trim() ? undefined : 'italic'}
          style={{ wordBreak: 'break-word' }}
        >
          {node.description?.trim() || t('admin.servers.noDescription')}
        </Text>
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
            <LauncherCard key={e.id} executor={e} expanded={expanded.includes(e.id)} onToggle={() => onToggle(e.id)} />
          ))}
        </Stack>
      )}
      <AddLauncherModal node={node} opened={adding} onClose={() => setAdding(false)} versions={versions} />
    </Stack>
  );
}

export function ServersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [addingServer, setAddingServer] = useState(false);
  const [updatingAll, setUpdatingAll] = useState(false);
  const nodes = useQuery({ queryKey: NODES_KEY, queryFn: nodesApi.list, refetchInterval: NODES_REFRESH_MS });
  const versions = useQuery({ queryKey: ['admin', 'executor-versions'], queryFn: nodesApi.versions, staleTime: 60_000 });
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
  const versionList = versions.data ?? [];
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
      <QueryState query={nodes} errorTitle={t('admin.servers.errorTitle')}>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 4 }}>
            <ServerList nodes={list} selected={selectedId} onSelect={(id) => setParam('server', id)} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 8 }}>
            {selected ? (
              <ServerDetails
                node={selected}
                versions={versionList}
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
      </QueryState>
      <AddServerModal opened={addingServer} onClose={() => setAddingServer(false)} onCreated={(id) => setParam('server', id)} />
      <UpdateAllModal opened={updatingAll} onClose={() => setUpdatingAll(false)} versions={versionList} />
    </Stack>
  );
}
