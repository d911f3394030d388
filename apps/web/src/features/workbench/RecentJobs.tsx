import { Anchor, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useJobsPage } from '../jobs/api';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../jobs/StatusBadge';
import { useModelName } from '../../lib/modelName';

/** The ten newest jobs on the dashboard, with a link to the history. */
export function RecentJobs() {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  const jobs = useJobsPage({ pageSize: 10, sortBy: 'createdAt', sortOrder: 'desc' });
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          {t('workbench.recent.heading')}
        </Title>
        <Anchor component={Link} to="/history" size="sm">
          {t('workbench.recent.all')}
        </Anchor>
      </Group>
      {jobs.isPending ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={36} />
          ))}
        </Stack>
      ) : !jobs.data?.jobs.length ? (
        <Text size="sm" c="dimmed">
          {t('jobs.empty')}
        </Text>
      ) : (
        <Stack gap={8} data-testid="recent-jobs">
          {jobs.data.jobs.map((j) => (
            <Group key={j.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="recent-job">
              <div style={{ minWidth: 0, flex: 1 }}>
                <Anchor component={Link} to={`/models/${j.model.name.toLowerCase()}`} size="sm" display="block" truncate="end">
                  {j.image.orginalFilename}
                </Anchor>
                <Text size="xs" c="dimmed" truncate="end">
                  {t('jobs.modelAndDate', { model: nameOf(j.model), date: formatDateTime(j.createdAt, i18n.language) })}
                </Text>
              </div>
              <StatusBadge status={j.status} />
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
