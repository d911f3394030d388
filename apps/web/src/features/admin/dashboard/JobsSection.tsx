import { SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAverageTimes, useCurrentJobs, useFails, useSuccess } from './api';
import { StatCard } from './StatCard';
import { useNumber } from './useNumber';

type Period = 'total' | 'last7Days' | 'last30Days';

/** Section 'Calculations': Current Jobs (polled every 5 s), Average Job Time, Failed Jobs, Successful Jobs. */
export function JobsSection() {
  const { t } = useTranslation();
  const num = useNumber();
  const current = useCurrentJobs();
  const times = useAverageTimes();
  const fails = useFails();
  const success = useSuccess();
  const periods = [
    { value: 'total', label: t('adminDashboard.period.total') },
    { value: 'last7Days', label: t('adminDashboard.period.days', { count: 7 }) },
    { value: 'last30Days', label: t('adminDashboard.period.days', { count: 30 }) },
  ];
  const secs = (ms: number | null | undefined) =>
    ms === null || ms === undefined ? num(null) : t('adminDashboard.seconds', { value: num(ms / 1000, 1) });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
      <StatCard
        testId="card-current-jobs"
        title={t('adminDashboard.currentJobs.title')}
        options={[
          { value: 'waiting', label: t('adminDashboard.currentJobs.waiting') },
          { value: 'active', label: t('adminDashboard.currentJobs.active') },
        ]}
        figure={(c) => num(c === 'waiting' ? current.data?.waiting : current.data?.active)}
        pending={current.isPending}
        failed={current.isError}
      />
      <StatCard
        testId="card-average-time"
        title={t('adminDashboard.averageTime.title')}
        options={[
          { value: 'calculationTime', label: t('adminDashboard.averageTime.calculation') },
          { value: 'waitingTime', label: t('adminDashboard.averageTime.waiting') },
        ]}
        figure={(c) => secs(c === 'calculationTime' ? times.data?.calculationTime : times.data?.waitingTime)}
        pending={times.isPending}
        failed={times.isError}
        extra={() => (
          <Text size="xs" c="dimmed" data-testid="card-average-time-note">
            {t('adminDashboard.averageTime.finishedOnly')}
          </Text>
        )}
      />
      <StatCard
        testId="card-fails"
        title={t('adminDashboard.fails.title')}
        options={periods}
        figure={(c) => num(fails.data?.[c as Period])}
        pending={fails.isPending}
        failed={fails.isError}
        extra={(c) => (
          <Stack gap={0} data-testid="card-fails-causes">
            <Text size="xs" c="dimmed">
              {t('adminDashboard.fails.modelRefusal', { count: fails.data?.byCause.modelRefusal[c as Period] ?? 0 })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('adminDashboard.fails.infrastructure', { count: fails.data?.byCause.infrastructure[c as Period] ?? 0 })}
            </Text>
          </Stack>
        )}
      />
      <StatCard
        testId="card-success"
        title={t('adminDashboard.success.title')}
        options={periods}
        figure={(c) => num(success.data?.[c as keyof NonNullable<typeof success.data>])}
        pending={success.isPending}
        failed={success.isError}
      />
    </SimpleGrid>
  );
}
