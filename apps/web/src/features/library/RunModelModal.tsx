import { Checkbox, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { useAvailableModels } from '../favourites/api';
import { useRunJobs } from '../jobs/api';
import { notifyJobError, notifyJobStarted } from '../jobs/notify';
import { useModelName } from '../../lib/modelName';

/**
 * Runs the selected images again on one or more models (POST /jobs). An image that was already analysed uses no
 * new licence unit (licences count distinct images).
 */
export function RunModelModal({ imageIds, opened, onClose }: { imageIds: string[]; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const models = useAvailableModels(opened);
  const run = useRunJobs();
  const [modelIds, setModelIds] = useState<string[]>([]);
  const submit = () =>
    run.mutate(
      { imageIds, modelIds },
      {
        onSuccess: (jobs) => {
          notifyJobStarted(t, jobs.length);
          setModelIds([]);
          onClose();
        },
        onError: (error) => notifyJobError(t, error),
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title={t('library.run.title', { count: imageIds.length })}>
      <Text size="sm" c="dimmed" mb="sm">
        {t('library.run.hint')}
      </Text>
      <Checkbox.Group value={modelIds} onChange={setModelIds} label={t('library.run.models')}>
        <Stack gap="xs" mt="xs">
          {(models.data ?? []).map((m) => (
            <Checkbox key={m.id} value={m.id} label={nameOf(m)} />
          ))}
        </Stack>
      </Checkbox.Group>
      <FormActions submitLabel={t('library.run.submit')} onSubmit={submit} onCancel={onClose} loading={run.isPending} disabled={!modelIds.length} />
    </Modal>
  );
}
