import { Badge, Group, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { JOB_STATUS_COLOR as COLORS, isJobRunning } from '../../lib/jobStatus';
import type { JobStatus } from './types';

/** Status of a job: NEW "in queue" and PENDING "running" with a spinner; CACHED is done, with a "from cache" badge. */
export function StatusBadge({ status }: { status: JobStatus }) {
  const { t } = useTranslation();
  const running = isJobRunning(status);
  return (
    <Group gap={4} wrap="nowrap">
      <Badge
        color={COLORS[status]}
        variant="light"
        leftSection={running ? <Loader size={10} color={COLORS[status]} aria-hidden /> : undefined}
        data-status={status}
      >
        {t(`jobs.status.${status}`)}
      </Badge>
      {status === 'CACHED' && (
        <Badge color="gray" variant="outline" size="xs">
          {t('jobs.fromCache')}
        </Badge>
      )}
    </Group>
  );
}
