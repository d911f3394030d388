import { Badge, Group } from '@mantine/core';
import type { TrainingVersionStatus } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';

const COLOR: Record<TrainingVersionStatus, string> = { CANDIDATE: 'violet', PROMOTED: 'teal', RETIRED: 'gray' };
const LABEL = {
  CANDIDATE: 'adminTraining.versionStatus.CANDIDATE',
  PROMOTED: 'adminTraining.versionStatus.PROMOTED',
  RETIRED: 'adminTraining.versionStatus.RETIRED',
} as const;

/** A trained version's status, and "Current" when jobs run with it now. */
export function VersionStatusBadge({ status, current }: { status: TrainingVersionStatus; current: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={4}>
      <Badge color={COLOR[status]} variant="light" data-testid="version-status" data-status={status}>
        {t(LABEL[status])}
      </Badge>
      {current && (
        <Badge color="blue" variant="filled" data-testid="version-current">
          {t('adminTraining.versions.currentBadge')}
        </Badge>
      )}
    </Group>
  );
}
