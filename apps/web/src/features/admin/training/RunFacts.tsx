import { SimpleGrid, Stack, Text } from '@mantine/core';
import type { TrainingRun } from '@lamella/contracts';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatAdminDateTime, NO_VALUE } from '../../../lib/format';
import { useModelName } from '../../../lib/modelName';

/** The images a run chose, in words: a chosen list, all, or the filter's parts. */
function filterText(t: TFunction, run: TrainingRun): string {
  if (run.imagesChosen) return t('adminTraining.run.filterChosen', { count: run.imageIds.length });
  const f = run.filter;
  const parts = [
    f.userIds?.length ? t('adminTraining.run.filterUsers', { count: f.userIds.length }) : null,
    f.groupIds?.length ? t('adminTraining.run.filterGroups', { count: f.groupIds.length }) : null,
    f.from ? t('adminTraining.run.filterFrom', { day: f.from }) : null,
    f.to ? t('adminTraining.run.filterTo', { day: f.to }) : null,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : t('adminTraining.run.filterAll');
}

/** A run's parameters and dates as label/value pairs. */
export function RunFacts({ run }: { run: TrainingRun }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const facts: [string, string][] = [
    [t('adminTraining.run.model'), nameOf(run.model)],
    [t('adminTraining.run.base'), run.baseVersion],
    [t('adminTraining.run.candidate'), run.candidateVersion],
    [
      t('adminTraining.run.images'),
      t('adminTraining.run.imagesValue', { train: run.imageIds.length - run.holdoutImageIds.length, holdout: run.holdoutImageIds.length }),
    ],
    [t('adminTraining.run.filter'), filterText(t, run)],
    [t('adminTraining.run.holdoutShare'), `${Math.round(run.holdoutShare * 100)} %`],
    [t('adminTraining.run.steps'), String(run.steps)],
    [t('adminTraining.run.seed'), String(run.seed)],
    [t('adminTraining.run.attempt'), String(run.attempt)],
    [t('adminTraining.run.launcher'), run.launcherId ?? NO_VALUE],
    [t('adminTraining.run.createdBy'), run.createdBy?.email ?? NO_VALUE],
    [t('adminTraining.run.created'), formatAdminDateTime(run.createdAt)],
    [t('adminTraining.run.started'), formatAdminDateTime(run.startedAt)],
    [t('adminTraining.run.finished'), formatAdminDateTime(run.finishedAt)],
  ];
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs" data-testid="run-facts">
      {facts.map(([label, value]) => (
        <Stack gap={0} key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}
