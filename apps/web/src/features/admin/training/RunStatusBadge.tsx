import { Badge } from '@mantine/core';
import type { TrainingRunStatus } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { RUN_STATUS_LABEL } from './labels';

const COLOR: Record<TrainingRunStatus, string> = { QUEUED: 'gray', RUNNING: 'blue', FINISHED: 'teal', FAILED: 'red', CANCELLED: 'orange' };

/** A training run's status as a coloured badge. */
export function RunStatusBadge({ status }: { status: TrainingRunStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={COLOR[status]} variant="light" data-testid="run-status" data-status={status}>
      {t(RUN_STATUS_LABEL[status])}
    </Badge>
  );
}
