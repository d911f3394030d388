import { Button, Modal, Text } from '@mantine/core';
import type { Project } from '@lamella/contracts';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useDeleteProject } from './api';

/** Delete with confirmation, then the green "project deleted" toast (title 'success') of user-app.md §8. */
export function DeleteProjectButton({ project, onDeleted }: { project: Project; onDeleted: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const remove = useDeleteProject();
  const confirm = () =>
    remove.mutate(project.id, {
      onSuccess: () => {
        notifySuccess(t('projects.delete.done'), t('projects.delete.successTitle'));
        setOpen(false);
        onDeleted();
      },
      onError: (err) => notifyError(errorText(t, err)),
    });
  return (
    <>
      <Button color="red" variant="light" size="xs" leftSection={<IconTrash size={14} />} onClick={() => setOpen(true)}>
        {t('projects.delete.button')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('projects.delete.title')}>
        <Text size="sm">{t('projects.delete.confirm', { name: project.name })}</Text>
        <FormActions submitLabel={t('projects.delete.submit')} onSubmit={confirm} onCancel={() => setOpen(false)} loading={remove.isPending} danger />
      </Modal>
    </>
  );
}
