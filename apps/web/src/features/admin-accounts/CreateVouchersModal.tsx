/** Create voucher(s): how many, executions each, expiry date (accounts.md §2). */
import { Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import type { CreatedVoucher } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { applyServerErrors } from '../../lib/forms';
import { errorText } from '../../lib/errorText';
import { notifyError } from '../../lib/notify';
import { vouchersApi } from './api';
import { defaultExpiry } from './rules';

export function CreateVouchersModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (v: CreatedVoucher[]) => void;
}) {
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
      if (!applyServerErrors(form, e)) notifyError(errorText(t, e, 'adminAccounts.error'));
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('adminAccounts.vouchers.createTitle')}>
      <form onSubmit={form.onSubmit(() => create.mutate())} noValidate>
        <Stack>
          <NumberInput label={t('adminAccounts.vouchers.count')} min={1} allowDecimal={false} {...form.getInputProps('count')} />
          <NumberInput label={t('adminAccounts.vouchers.executions')} min={1} allowDecimal={false} {...form.getInputProps('executions')} />
          <TextInput type="date" label={t('adminAccounts.vouchers.validUntil')} {...form.getInputProps('validUntil')} />
          <FormActions
            submitLabel={t('adminAccounts.vouchers.createSubmit')}
            onCancel={onClose}
            cancelLabel={t('adminAccounts.cancel')}
            loading={create.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
