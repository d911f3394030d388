import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconCopy, IconInfoCircle, IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccessKey, CreatedAccessKey } from '@lamella/contracts';
import { applyServerErrors, required } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { useFormat } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useAccessKeys, useCreateAccessKey, useDeleteAccessKey, useSetAccessKeyEnabled } from './api';

export function AccessKeysPage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<CreatedAccessKey | null>(null);
  return (
    <Stack gap="lg" maw={960}>
      <Title order={1} size="h2">
        {t('accessKeys.title')}
      </Title>
      <Alert icon={<IconInfoCircle />} color="indigo" variant="light">
        {t('accessKeys.info')}
      </Alert>
      <CreateKeyForm onCreated={setCreated} />
      <KeysTable />
      <CreatedKeyModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedAccessKey) => void }) {
  const { t } = useTranslation();
  const create = useCreateAccessKey();
  const form = useForm({
    initialValues: { name: '' },
    validate: { name: required(t, 'accessKeys.name') },
  });
  return (
    <Card withBorder>
      <form
        onSubmit={form.onSubmit((v) =>
          create.mutate(v.name.trim(), {
            onSuccess: (key) => {
              form.reset();
              onCreated(key);
            },
            onError: (e) => {
              if (!applyServerErrors(form, e)) notifyError(errorText(t, e, 'accessKeys.createFailed'));
            },
          }),
        )}
        noValidate
      >
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label={t('accessKeys.name')}
            placeholder={t('accessKeys.namePlaceholder')}
            required
            maxLength={100}
            style={{ flex: '1 1 220px' }}
            {...form.getInputProps('name')}
          />
          <Button type="submit" loading={create.isPending} mt={{ base: 0, xs: 25 }} leftSection={<IconKey size={16} />}>
            {t('accessKeys.create')}
          </Button>
        </Group>
      </form>
    </Card>
  );
}

function KeysTable() {
  const { t } = useTranslation();
  const keys = useAccessKeys();
  const setEnabled = useSetAccessKeyEnabled();
  const remove = useDeleteAccessKey();
  const fmt = useFormat();

  const confirmDelete = (key: AccessKey) =>
    modals.openConfirmModal({
      title: t('accessKeys.deleteTitle'),
      children: <Text size="sm">{t('accessKeys.deleteConfirm', { name: key.name })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(key.id, {
          onSuccess: () => notifySuccess(t('accessKeys.deleted')),
          onError: (e) => notifyError(errorText(t, e, 'accessKeys.deleteFailed')),
        }),
    });

  const toggle = (key: AccessKey, enabled: boolean) =>
    setEnabled.mutate(
      { id: key.id, enabled },
      {
        onSuccess: () => notifySuccess(enabled ? t('accessKeys.enabledToast') : t('accessKeys.disabledToast')),
        onError: (e) => notifyError(errorText(t, e, 'accessKeys.updateFailed')),
      },
    );

  if (keys.isPending)
    return (
      <Stack gap="xs">
        <Skeleton h={36} />
        <Skeleton h={36} />
      </Stack>
    );
  if (keys.isError) return <Alert color="red">{t('accessKeys.loadFailed')}</Alert>;
  if (keys.data.length === 0)
    return (
      <Card withBorder>
        <Stack align="center" gap={4} py="md">
          <IconKey size={32} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text fw={500}>{t('accessKeys.emptyTitle')}</Text>
          <Text size="sm" c="dimmed" ta="center">
            {t('accessKeys.emptyText')}
          </Text>
        </Stack>
      </Card>
    );

  return (
    // On phones the enrollment date is left out so the switch and delete button stay on screen.
    <Table.ScrollContainer minWidth={340}>
      <Table verticalSpacing="sm" highlightOnHover aria-label={t('accessKeys.tableLabel')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('accessKeys.columns.label')}</Table.Th>
            <Table.Th visibleFrom="sm">{t('accessKeys.columns.enrolled')}</Table.Th>
            <Table.Th>{t('accessKeys.columns.lastUsed')}</Table.Th>
            <Table.Th ta="right">{t('accessKeys.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.data.map((key) => (
            <Table.Tr
              key={key.id}
              className={key.enabled ? undefined : 'access-key-disabled'}
              style={key.enabled ? undefined : { opacity: 0.55 }}
              data-testid="access-key-row"
              data-enabled={key.enabled}
            >
              <Table.Td fw={500}>{key.name}</Table.Td>
              <Table.Td visibleFrom="sm">{fmt.date(key.createdAt)}</Table.Td>
              <Table.Td>
                {key.lastUsed ? (
                  <Tooltip label={fmt.timestamp(key.lastUsed)}>
                    <span>{fmt.relative(key.lastUsed)}</span>
                  </Tooltip>
                ) : (
                  t('accessKeys.neverUsed')
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="sm" justify="flex-end" wrap="nowrap">
                  <Switch
                    checked={key.enabled}
                    onChange={(e) => toggle(key, e.currentTarget.checked)}
                    aria-label={t('accessKeys.toggle', { name: key.name })}
                    label={key.enabled ? t('accessKeys.enabled') : t('accessKeys.disabled')}
                    disabled={setEnabled.isPending && setEnabled.variables?.id === key.id}
                  />
                  <Tooltip label={t('common.delete')}>
                    <ActionIcon
                      color="red"
                      variant="subtle"
                      onClick={() => confirmDelete(key)}
                      aria-label={t('accessKeys.delete', { name: key.name })}
                    >
                      <IconTrash size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The key's code is shown once, right after creation. */
function CreatedKeyModal({ created, onClose }: { created: CreatedAccessKey | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={!!created} onClose={onClose} title={t('accessKeys.createdTitle')} size="lg" closeOnClickOutside={false}>
      {created && (
        <Stack gap="md">
          <Alert color="yellow" icon={<IconAlertTriangle />}>
            {t('accessKeys.onceWarning')}
          </Alert>
          <Text size="sm">{t('accessKeys.createdFor', { name: created.name })}</Text>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="access-key-code">
              {created.code}
            </Code>
            <CopyButton value={created.code} timeout={5000}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? t('common.copied') : t('common.copy')}>
                  <ActionIcon
                    size="lg"
                    variant="light"
                    color={copied ? 'green' : 'indigo'}
                    aria-label={t('accessKeys.copy')}
                    onClick={() => {
                      copy();
                      notifySuccess(t('accessKeys.copied'));
                    }}
                  >
                    <IconCopy size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('accessKeys.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
