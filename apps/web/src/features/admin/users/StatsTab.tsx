import { Card, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListState } from '../../../components/ListState';
import { JOB_STATUSES } from '../../../lib/jobStatus';
import { useUserStats } from './api';

/** The user's jobs per status (GET /users/{userId}/stats). */
export function StatsTab({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const stats = useUserStats(userId);
  return (
    <ListState query={stats}>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="md">
        {JOB_STATUSES.map((s) => (
          <Card key={s} withBorder data-testid={`stat-${s}`}>
            <Text size="xs" c="dimmed">
              {t(`adminUsers.jobStatus.${s}`)}
            </Text>
            <Text fz={24} fw={700}>
              {stats.data?.[s] ?? 0}
            </Text>
          </Card>
        ))}
      </SimpleGrid>
    </ListState>
  );
}
