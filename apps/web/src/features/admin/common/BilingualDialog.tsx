import { Modal, Stack } from '@mantine/core';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { BilingualFields } from '../insights/BilingualFields';
import { emptyBilingual, validateBilingual, type BilingualErrors, type BilingualValues } from '../insights/bilingual';

interface Props {
  /** The stored item being edited, or null to add one. */
  item: BilingualValues | null;
  /** The modal's title and `data-testid`; `testIdPrefix` names the fields (see BilingualFields). */
  title: string;
  testId: string;
  testIdPrefix: string;
  /** The list to refresh after saving. */
  queryKey: QueryKey;
  /** Creates or updates the item with the checked values (titles trimmed); answers the success message. */
  save: (values: BilingualValues) => Promise<{ message: string }>;
  onClose: () => void;
  /** Shown above the title and content fields. */
  children?: ReactNode;
}

/** The add / edit modal of an insight or news item: English and German title and content, all required. */
export function BilingualDialog({ item, title, testId, testIdPrefix, queryKey, save, onClose, children }: Props) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [initial] = useState<BilingualValues>(() => (item ? { ...item } : emptyBilingual()));
  const [values, setValues] = useState<BilingualValues>(initial);
  const [errors, setErrors] = useState<BilingualErrors>({});
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: async (saved) => {
      notifySuccess(saved.message);
      await qc.invalidateQueries({ queryKey });
      onClose();
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const submit = () => {
    const errs = validateBilingual(t, values);
    setErrors(errs);
    if (!Object.keys(errs).length) mutation.mutate({ ...values, titleEn: values.titleEn.trim(), titleDe: values.titleDe.trim() });
  };
  return (
    <Modal opened onClose={onClose} title={title} size="xl" data-testid={testId}>
      <Stack>
        {children}
        <BilingualFields
          initial={initial}
          values={values}
          errors={errors}
          onChange={(p) => setValues((v) => ({ ...v, ...p }))}
          testIdPrefix={testIdPrefix}
        />
        <FormActions
          submitLabel={t('insights.form.save')}
          cancelLabel={t('insights.form.cancel')}
          onCancel={onClose}
          onSubmit={submit}
          loading={mutation.isPending}
        />
      </Stack>
    </Modal>
  );
}
