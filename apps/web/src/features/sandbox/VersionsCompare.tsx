import { Alert, Button, Card, Group, MultiSelect, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconGitCompare } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sandboxApi, TRAINABLE_MODELS, type Job } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { useModelName } from '../../lib/modelName';
import { notifyError } from '../../lib/notify';
import { useTrainedVersions } from '../admin/training/api';
import { useComputeModels } from '../admin/models/api';
import { SANDBOX_KEY, useImages } from '../jobs/api';
import { useSandboxJobs } from './api';
import { CompareRow } from './CompareRow';

interface Comparison {
  current: string;
  candidate: string;
  /** Per image: the job of the current version and the candidate's. */
  images: { imageId: string; name: string; jobIds: string[] }[];
}

/**
 * The admin sandbox's "Versions compare" (issue 25 item 4): a trained version and the model's current one run as
 * sandbox jobs on the chosen images; each image shows both results (overlays) and their numbers next to each other.
 */
export function VersionsCompare() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const models = useComputeModels();
  const nameOf = useModelName();
  const trainable = (models.data ?? []).filter((m) => (TRAINABLE_MODELS as readonly string[]).includes(m.internalName));
  const [modelId, setModelId] = useState<string | null>(null);
  const chosenModel = modelId ?? trainable[0]?.id ?? null;
  const versions = useTrainedVersions(chosenModel ?? '', Boolean(chosenModel));
  const [candidate, setCandidate] = useState<string | null>(null);
  const [imageIds, setImageIds] = useState<string[]>([]);
  const [shown, setShown] = useState(false);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const images = useImages();
  const jobs = useSandboxJobs();
  const current = versions.data?.currentVersion ?? '';
  const candidates = (versions.data?.versions ?? []).filter((v) => v.version !== current).map((v) => ({ value: v.version, label: v.version }));
  const chosenCandidate = candidate ?? candidates[0]?.value ?? null;
  const run = useMutation({
    mutationFn: async (): Promise<Comparison> => {
      const out: Comparison = { current, candidate: chosenCandidate!, images: [] };
      for (const imageId of imageIds) {
        const created = await call(sandboxApi.run, {
          body: { imageId, modelsIds: [chosenModel!], versions: [current, chosenCandidate!], source: 'SANDBOX' },
        });
        const name = images.data?.find((i) => i.id === imageId)?.orginalFilename ?? imageId;
        out.images.push({ imageId, name, jobIds: created.map((j) => j.id) });
      }
      return out;
    },
    onSuccess: setComparison,
    onError: (e) => notifyError(errorText(t, e, 'sandbox.failed')),
    onSettled: () => void qc.invalidateQueries({ queryKey: SANDBOX_KEY }),
  });
  const errors = { images: imageIds.length === 0, candidate: !chosenCandidate };
  const start = () => {
    setShown(true);
    if (!errors.images && !errors.candidate && chosenModel) run.mutate();
  };
  const byId = new Map((jobs.data ?? []).map((j) => [j.id, j]));
  const pick = (ids: string[], version: string): Job | undefined => ids.map((id) => byId.get(id)).find((j) => j?.modelVersion === version);
  return (
    <Stack gap="md" data-testid="versions-compare">
      <Title order={2} size="h3">
        {t('adminTraining.compare.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('adminTraining.compare.hint')}
      </Text>
      <Card withBorder>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <Select
              label={t('adminTraining.compare.model')}
              data={trainable.map((m) => ({ value: m.id, label: nameOf(m) }))}
              value={chosenModel}
              onChange={(v) => {
                setModelId(v);
                setCandidate(null);
              }}
              allowDeselect={false}
            />
            <Select
              label={t('adminTraining.compare.candidate')}
              data={candidates}
              value={chosenCandidate}
              onChange={setCandidate}
              allowDeselect={false}
              error={shown && errors.candidate ? t('adminTraining.compare.candidateRequired') : undefined}
              data-testid="compare-candidate-version"
            />
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {t('adminTraining.compare.current')}
              </Text>
              <Text size="sm" py={6} data-testid="compare-current-version">
                {current}
              </Text>
            </Stack>
          </SimpleGrid>
          {versions.isSuccess && candidates.length === 0 && (
            <Alert color="gray" data-testid="compare-no-candidates">
              {t('adminTraining.compare.noCandidates')}
            </Alert>
          )}
          <MultiSelect
            label={t('adminTraining.compare.images')}
            placeholder={imageIds.length ? undefined : t('adminTraining.compare.imagesPlaceholder')}
            data={(images.data ?? []).map((i) => ({ value: i.id, label: i.orginalFilename }))}
            value={imageIds}
            onChange={setImageIds}
            searchable
            maxValues={6}
            error={shown && errors.images ? t('adminTraining.compare.imagesRequired') : undefined}
            comboboxProps={{ withinPortal: true }}
            data-testid="compare-images"
          />
          <Group justify="flex-end">
            <Button leftSection={<IconGitCompare size={16} />} onClick={start} loading={run.isPending} data-testid="compare-run">
              {t('adminTraining.compare.run')}
            </Button>
          </Group>
        </Stack>
      </Card>
      {comparison?.images.map((row) => (
        <CompareRow
          key={row.imageId}
          imageName={row.name}
          current={pick(row.jobIds, comparison.current)}
          candidate={pick(row.jobIds, comparison.candidate)}
        />
      ))}
    </Stack>
  );
}
