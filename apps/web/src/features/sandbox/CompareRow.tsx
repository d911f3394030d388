import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Job } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { CompareNumbers } from './CompareNumbers';
import { SandboxJobCard } from './SandboxJobCard';

/** One image of a versions compare: the current version's job and the candidate's side by side, then their numbers. */
export function CompareRow({ imageName, current, candidate }: { imageName: string; current: Job | undefined; candidate: Job | undefined }) {
  const { t } = useTranslation();
  return (
    <Card withBorder data-testid="compare-row">
      <Stack gap="sm">
        <Title order={3} size="h5" style={{ wordBreak: 'break-all' }}>
          {t('adminTraining.compare.imageRow', { name: imageName })}
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Stack gap={4} data-testid="compare-current">
            <Text size="sm" fw={600}>
              {t('adminTraining.compare.current')}
            </Text>
            {current ? <SandboxJobCard job={current} /> : null}
          </Stack>
          <Stack gap={4} data-testid="compare-candidate">
            <Text size="sm" fw={600}>
              {t('adminTraining.compare.candidate')}
            </Text>
            {candidate ? <SandboxJobCard job={candidate} /> : null}
          </Stack>
        </SimpleGrid>
        <CompareNumbers current={current} candidate={candidate} />
      </Stack>
    </Card>
  );
}
