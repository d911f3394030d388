import { ActionIcon, Badge, Group, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AccessKey } from '@lamella/contracts';
import { errorText } from '../../lib/errorText';
import { useFormat } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useDeleteAccessKey, useSetAccessKeyEnabled } from './api';

/** One key of the list: name, scope, requests a minute, request count, last use, creation date, switch and delete. */
export function KeyRow({ accessKey: key, wide }: { accessKey: AccessKey; wide: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const setEnabled = useSetAccessKeyEnabled();
  const remove = useDeleteAccessKey();
  const number = new Intl.NumberFormat(fmt.lng);
  const readOnly = key.scope === 'READ_ONLY';

  const requests = number.format(key.requestCount);
  const lastUsed = key.lastUsed ? (
    <Tooltip label={fmt.timestamp(key.lastUsed)}>
      <span>{fmt.relative(key.lastUsed)}</span>
    </Tooltip>
  ) : (
    t('accessKeys.neverUsed')
  );

  const confirmDelete = () =>
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

  const toggle = (enabled: boolean) =>
    setEnabled.mutate(
      { id: key.id, enabled },
      {
        onSuccess: () => notifySuccess(enabled ? t('accessKeys.enabledToast') : t('accessKeys.disabledToast')),
        onError: (e) => notifyError(errorText(t, e, 'accessKeys.updateFailed')),
      },
    );

  return (
    <Table.Tr
      className={key.enabled ? undefined : 'access-key-disabled'}
      style={key.enabled ? undefined : { opacity: 0.55 }}
      data-testid="access-key-row"
      data-enabled={key.enabled}
      data-scope={key.scope}
    >
      <Table.Td>
        <Stack gap={4}>
          <Text fw={500} size="sm" style={{ wordBreak: 'break-word' }}>
            {key.name}
          </Text>
          <Group gap={6} wrap="wrap">
            <Badge size="sm" variant="light" color={readOnly ? 'teal' : 'indigo'} data-testid="access-key-scope">
              {readOnly ? t('accessKeys.scopeReadOnly') : t('accessKeys.scopeReadWrite')}
            </Badge>
            <Text size="xs" c="dimmed" data-testid="access-key-rate">
              {t('accessKeys.ratePerMinute', { rate: number.format(key.ratePerMinute) })}
            </Text>
          </Group>
          {!wide && (
            <>
              <Text size="xs" c="dimmed" data-testid="access-key-requests" data-count={key.requestCount}>
                {t('accessKeys.requestsLine', { requests })}
              </Text>
              <Text size="xs" c="dimmed" data-testid="access-key-last-used">
                {t('accessKeys.lastUsedLine', { when: key.lastUsed ? fmt.relative(key.lastUsed) : t('accessKeys.neverUsed') })}
              </Text>
            </>
          )}
        </Stack>
      </Table.Td>
      {wide && (
        <Table.Td ta="right" data-testid="access-key-requests" data-count={key.requestCount}>
          {requests}
        </Table.Td>
      )}
      {wide && <Table.Td data-testid="access-key-last-used">{lastUsed}</Table.Td>}
      {wide && <Table.Td>{fmt.date(key.createdAt)}</Table.Td>}
      <Table.Td>
        <Group gap="sm" justify="flex-end" wrap="nowrap">
          <Switch
            checked={key.enabled}
            onChange={(e) => toggle(e.currentTarget.checked)}
            aria-label={t('accessKeys.toggle', { name: key.name })}
            label={wide ? (key.enabled ? t('accessKeys.enabled') : t('accessKeys.disabled')) : undefined}
            disabled={setEnabled.isPending}
          />
          <Tooltip label={t('common.delete')}>
            <ActionIcon color="red" variant="subtle" onClick={confirmDelete} aria-label={t('accessKeys.delete', { name: key.name })}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
