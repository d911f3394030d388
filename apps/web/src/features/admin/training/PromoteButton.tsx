import { Button } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useVersionChange } from './api';
import { confirmAction } from './confirm';

/** Promote a candidate to the model's current version, after a confirmation (the server audit-logs it). */
export function PromoteButton({ modelId, modelName, version }: { modelId: string; modelName: string; version: string }) {
  const { t } = useTranslation();
  const change = useVersionChange(modelId);
  const promote = () =>
    change.mutate(
      { kind: 'promote', version },
      {
        onSuccess: (r) => notifySuccess(r.message || t('adminTraining.versions.promoted', { version, name: modelName })),
        onError: (e) => notifyError(errorText(t, e, 'admin.error')),
      },
    );
  return (
    <Button
      leftSection={<IconRocket size={16} />}
      loading={change.isPending}
      data-testid="promote"
      onClick={() =>
        confirmAction(
          t,
          {
            message: t('adminTraining.versions.promoteConfirm', { version, name: modelName }),
            confirm: t('adminTraining.versions.promote'),
            testId: 'promote-confirm',
          },
          promote,
        )
      }
    >
      {t('adminTraining.versions.promote')}
    </Button>
  );
}
