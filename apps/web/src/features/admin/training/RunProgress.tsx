import { Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TrainingRun } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { duration, formatLoss, percentDone } from './format';

/** A run's live progress: a bar, then step, loss, elapsed time and the estimate of what is left. */
export function RunProgress({ run, compact = false }: { run: Pick<TrainingRun, 'status' | 'progress' | 'steps'>; compact?: boolean }) {
  const { t } = useTranslation();
  const p = run.progress;
  const pct = run.status === 'FINISHED' ? 100 : percentDone(p);
  const bar = (
    <Progress
      value={pct}
      animated={run.status === 'RUNNING'}
      striped={run.status === 'RUNNING'}
      color={run.status === 'FAILED' ? 'red' : run.status === 'CANCELLED' ? 'orange' : run.status === 'FINISHED' ? 'teal' : 'blue'}
      aria-label={t('adminTraining.progress.label')}
      aria-valuenow={Math.round(pct)}
      size={compact ? 'sm' : 'lg'}
      data-testid="run-progress-bar"
    />
  );
  const step = t('adminTraining.progress.stepValue', { step: p?.step ?? 0, steps: p?.steps ?? run.steps });
  if (compact) {
    return (
      <Stack gap={2} miw={120}>
        {bar}
        <Text size="xs" c="dimmed">
          {step}
        </Text>
      </Stack>
    );
  }
  const figures: [string, string, string][] = [
    ['step', t('adminTraining.progress.step'), step],
    ['loss', t('adminTraining.progress.loss'), formatLoss(p?.loss)],
    ['elapsed', t('adminTraining.progress.elapsed'), duration(p?.elapsedS)],
    ['eta', t('adminTraining.progress.eta'), run.status === 'RUNNING' ? duration(p?.etaS) : duration(run.status === 'FINISHED' ? 0 : null)],
  ];
  return (
    <Stack gap="xs" data-testid="run-progress">
      {bar}
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        {figures.map(([key, label, value]) => (
          <Group key={key} gap={4} wrap="nowrap" align="baseline">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text fw={600} data-testid={`progress-${key}`} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {value}
              </Text>
            </Stack>
          </Group>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
