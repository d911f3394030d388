import { Badge, Card, Center, Group, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Job } from '@lamella/contracts';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../jobs/StatusBadge';
import { isRunning } from '../jobs/types';
import { ResultItems } from '../results/ResultItems';
import { useModelName } from '../../lib/modelName';

/** One sandbox job: model, image, version and status; its results when done. */
export function SandboxJobCard({ job }: { job: Job }) {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  const failed = job.status === 'FAILED';
  return (
    <Card
      withBorder
      padding="sm"
      data-testid="sandbox-job"
      data-status={job.status}
      style={failed ? { borderColor: 'var(--mantine-color-red-5)', background: 'var(--mantine-color-red-0)' } : undefined}
    >
      <Group justify="space-between" wrap="wrap" mb="xs" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={500} size="sm">
            {nameOf(job.model)}
          </Text>
          <Text size="xs" c="dimmed" truncate="end">
            {t('sandbox.jobLine', { image: job.image.orginalFilename, date: formatDateTime(job.createdAt, i18n.language) })}
          </Text>
        </div>
        <Group gap={4}>
          <Badge variant="outline" size="sm" tt="none">
            {t('sandbox.version', { version: job.modelVersion })}
          </Badge>
          <StatusBadge status={job.status} />
        </Group>
      </Group>
      {isRunning(job.status) ? (
        <Center py="md">
          <Loader size="sm" />
        </Center>
      ) : failed ? (
        <Text size="sm" c="red.8">
          {t('results.error.apology')}
        </Text>
      ) : (
        <ResultItems job={job} />
      )}
    </Card>
  );
}
