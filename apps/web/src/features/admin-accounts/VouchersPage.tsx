import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionIcon, Alert, Button, Code, Group, Loader, Modal, ScrollArea, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../lib/notify';
import { errorText } from '../../lib/errorText';
import type { CreatedVoucher, Voucher } from '@lamella/contracts';
import { vouchersApi } from './api';
import { CreateVouchersModal } from './CreateVouchersModal';
import { formatAdminDateTime } from '../../lib/format';

/** Vouchers (accounts.md §2): Key, Created at, Executions, Expiration date, Taken by, Action; Create voucher(s). */
export function VouchersPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'vouchers'], queryFn: vouchersApi.list });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedVoucher[] | null>(null);
  const [deleting, setDeleting] = useState<Voucher | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => vouchersApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('adminAccounts.vouchers.deleted'));
      setDeleting(null);
      return qc.invalidateQueries({ queryKey: ['admin', 'vouchers'] });
    },
    onError: (e) => notifyError(errorText(t, e, 'adminAccounts.error')),
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>{t('adminAccounts.vouchers.title')}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          {t('adminAccounts.vouchers.create')}
        </Button>
      </Group>
      {list.isLoading ? (
        <Loader aria-label={t('adminAccounts.loading')} />
      ) : list.isError ? (
        <Alert color="red">{errorText(t, list.error, 'adminAccounts.error')}</Alert>
      ) : !list.data?.vouchers.length ? (
        <Text c="dimmed">{t('adminAccounts.vouchers.empty')}</Text>
      ) : (
        <ScrollArea type="auto">
          <Table striped highlightOnHover miw={640}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('adminAccounts.vouchers.key')}</Table.Th>
                <Table.Th>{t('adminAccounts.vouchers.createdAt')}</Table.Th>
                <Table.Th>{t('adminAccounts.vouchers.executions')}</Table.Th>
                <Table.Th>{t('adminAccounts.vouchers.validUntil')}</Table.Th>
                <Table.Th>{t('adminAccounts.vouchers.takenBy')}</Table.Th>
                <Table.Th>{t('adminAccounts.vouchers.action')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.vouchers.map((v) => (
                <Table.Tr key={v.id}>
                  <Table.Td>
                    <Code>{v.key}</Code>
                  </Table.Td>
                  <Table.Td>{formatAdminDateTime(v.createdAt)}</Table.Td>
                  <Table.Td>{v.executions}</Table.Td>
                  <Table.Td>{v.validUntil ? formatAdminDateTime(v.validUntil) : '-'}</Table.Td>
                  <Table.Td>{v.takenBy?.name ?? '-'}</Table.Td>
                  <Table.Td>
                    <Tooltip label={t('adminAccounts.delete')}>
                      <ActionIcon variant="subtle" color="red" aria-label={t('adminAccounts.delete')} onClick={() => setDeleting(v)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      <CreateVouchersModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(vs) => {
          setCreating(false);
          setCreated(vs);
          void qc.invalidateQueries({ queryKey: ['admin', 'vouchers'] });
        }}
      />
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('adminAccounts.vouchers.generated')}>
        <Stack>
          {created?.map((v) => (
            <Code key={v.id}>{v.key}</Code>
          ))}
          <Button onClick={() => setCreated(null)}>{t('adminAccounts.ok')}</Button>
        </Stack>
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title={t('adminAccounts.vouchers.deleteTitle')}>
        <Stack>
          <Text>{t('adminAccounts.vouchers.deleteConfirm', { key: deleting?.key ?? '' })}</Text>
          <FormActions
            submitLabel={t('adminAccounts.yes')}
            onSubmit={() => deleting && remove.mutate(deleting.id)}
            onCancel={() => setDeleting(null)}
            cancelLabel={t('adminAccounts.no')}
            loading={remove.isPending}
            danger
          />
        </Stack>
      </Modal>
    </Stack>
  );
}
