import { Badge, Group, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { JobStatus } from './types';

const COLORS: Record<JobStatus, string> = { NEW: 'gray', PENDING: 'blue', FINISHED: 'green', CACHED: 'green', FAILED: 'red' };

/** Status of a job: NEW "in queue" and PENDING "running" with a spinner; CACHED is done, with a "from cache" badge. */
export function StatusBadge({ status }: { status: JobStatus }) {
  const { t } = useTranslation();
  const running = status === 'NEW' || status === 'PENDING';
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
