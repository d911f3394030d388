import { Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useDeleteImages } from './api';

/** Confirms the soft delete of the selected images (their jobs are archived). */
export function DeleteImagesModal({
  imageIds,
  opened,
  onClose,
  onDeleted,
}: {
  imageIds: string[];
  opened: boolean;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteImages();
  const submit = () =>
    remove.mutate(imageIds, {
      onSuccess: (res) => {
        notifySuccess(t('library.delete.done', { count: res.deleted }), t('library.delete.successTitle'));
        onDeleted();
        onClose();
      },
      onError: (error) => notifyError(errorText(t, error)),
    });
  return (
    <Modal opened={opened} onClose={onClose} title={t('library.delete.title', { count: imageIds.length })}>
      <Text size="sm">{t('library.delete.confirm', { count: imageIds.length })}</Text>
      <FormActions submitLabel={t('library.delete.submit')} onSubmit={submit} onCancel={onClose} loading={remove.isPending} danger />
    </Modal>
  );
}
