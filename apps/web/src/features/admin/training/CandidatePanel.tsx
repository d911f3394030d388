import { Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { TrainingRun } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useModelName } from '../../../lib/modelName';
import { useTrainedVersions } from './api';
import { PromoteButton } from './PromoteButton';
import { useImageNames } from './useImageNames';
import { ValidationTable } from './ValidationTable';
import { VersionStatusBadge } from './VersionStatusBadge';

/** A finished run's candidate: its validation against the base version and Promote while it is a candidate. */
export function CandidatePanel({ run }: { run: TrainingRun }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const versions = useTrainedVersions(run.modelId);
  const names = useImageNames(run.modelId);
  const version = versions.data?.versions.find((v) => v.version === run.candidateVersion);
  return (
    <Card withBorder data-testid="candidate-panel">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={2} size="h4">
              {t('adminTraining.run.candidateTitle', { version: run.candidateVersion })}
            </Title>
            {version && <VersionStatusBadge status={version.status} current={version.isCurrent} />}
          </Group>
          {version?.status === 'CANDIDATE' && !version.isCurrent && (
            <PromoteButton modelId={run.modelId} modelName={nameOf(run.model)} version={version.version} />
          )}
        </Group>
        {versions.isPending ? (
          <Loader size="sm" />
        ) : version ? (
          <ValidationTable validation={version.validation} baseVersion={run.baseVersion} candidateVersion={version.version} imageName={names} />
        ) : (
          <Text size="sm" c="dimmed">
            {t('adminTraining.run.candidateMissing')}
          </Text>
        )}
        <Anchor component={Link} to={`/admin/compute-compute-models-registry/${run.modelId}/versions`} size="sm">
          {t('adminTraining.run.toVersions', { name: nameOf(run.model) })}
        </Anchor>
      </Stack>
    </Card>
  );
}
