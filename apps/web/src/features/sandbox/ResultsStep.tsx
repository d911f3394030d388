import { SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSandboxJobs } from './api';
import { SandboxJobCard } from './SandboxJobCard';
import { useModelName } from '../../lib/modelName';

/** The last step: this run's jobs (side by side when comparing versions), then the earlier ones of 24 h. */
export function ResultsStep({ runIds, sideBySide }: { runIds: string[] | null; sideBySide: boolean }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const jobs = useSandboxJobs();
  if (jobs.isPending) return <Skeleton h={160} />;
  const all = jobs.data ?? [];
  // side by side, a model's versions read left to right from the oldest
  const current = (runIds ? all.filter((j) => runIds.includes(j.id)) : []).sort(
    (a, b) => nameOf(a.model).localeCompare(nameOf(b.model)) || String(a.modelVersion).localeCompare(String(b.modelVersion)),
  );
  const earlier = all.filter((j) => !runIds?.includes(j.id));
  return (
    <Stack>
      {current.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: sideBySide || current.length > 1 ? 2 : 1 }} data-testid="sandbox-results">
          {current.map((j) => (
            <SandboxJobCard key={j.id} job={j} />
          ))}
        </SimpleGrid>
      )}
      {earlier.length > 0 && (
        <>
          <Title order={2} size="h5" mt="md">
            {t('sandbox.earlier')}
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {earlier.map((j) => (
              <SandboxJobCard key={j.id} job={j} />
            ))}
          </SimpleGrid>
        </>
      )}
      {all.length === 0 && (
        <Text c="dimmed" ta="center" py="lg">
          {t('sandbox.noJobs')}
        </Text>
      )}
    </Stack>
  );
}
