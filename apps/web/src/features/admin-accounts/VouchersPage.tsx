import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  NumberInput,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '../../lib/notify';
import { applyServerErrors, serverMessage } from '../../lib/forms';
import { defaultExpiry, formatDateTime, vouchersApi, type Voucher } from './api';

/** Vouchers (accounts.md §2): Key, Created at, Executions, Expiration date, Taken by, Action; Create voucher(s). */
export function VouchersPage() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['admin', 'vouchers'], queryFn: vouchersApi.list });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Voucher[] | null>(null);
  const [deleting, setDeleting] = useState<Voucher | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => vouchersApi.remove(id),
    onSuccess: () => {
      notifySuccess(t('adminAccounts.vouchers.deleted'));
      setDeleting(null);
      return qc.invalidateQueries({ queryKey: ['admin', 'vouchers'] });
    },
    onError: (e) => notifyError(serverMessage(e, t('adminAccounts.error'))),
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
        <Alert color="red">{serverMessage(list.error, t('adminAccounts.error'))}</Alert>
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
                  <Table.Td>{formatDateTime(v.createdAt)}</Table.Td>
                  <Table.Td>{v.executions}</Table.Td>
                  <Table.Td>{v.validUntil ? formatDateTime(v.validUntil) : '-'}</Table.Td>
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
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>
              {t('adminAccounts.no')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)}>
              {t('adminAccounts.yes')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function CreateVouchersModal({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated: (v: Voucher[]) => void }) {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { count: 1 as number | string, executions: 10 as number | string, validUntil: defaultExpiry() },
    validate: {
      count: (v) => (Number(v) > 0 ? null : t('adminAccounts.vouchers.countInvalid')),
      executions: (v) => (Number(v) > 0 ? null : t('adminAccounts.vouchers.executionsInvalid')),
      validUntil: (v) => (!v || new Date(`${v}T23:59:59`).getTime() > Date.now() ? null : t('adminAccounts.vouchers.expiryInvalid')),
    },
  });
  const create = useMutation({
    mutationFn: () =>
      vouchersApi.create({
        count: Number(form.values.count),
        executions: Number(form.values.executions),
        validUntil: form.values.validUntil ? new Date(`${form.values.validUntil}T23:59:59`).toISOString() : null,
      }),
    onSuccess: (res) => {
      form.reset();
      onCreated(res.vouchers);
    },
    onError: (e) => {
      if (!applyServerErrors(form, e)) notifyError(serverMessage(e, t('adminAccounts.error')));
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('adminAccounts.vouchers.createTitle')}>
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          <NumberInput label={t('adminAccounts.vouchers.count')} min={1} allowDecimal={false} {...form.getInputProps('count')} />
          <NumberInput label={t('adminAccounts.vouchers.executions')} min={1} allowDecimal={false} {...form.getInputProps('executions')} />
          <TextInput type="date" label={t('adminAccounts.vouchers.validUntil')} {...form.getInputProps('validUntil')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('adminAccounts.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('adminAccounts.vouchers.createSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
