import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ModelVersionArtefact } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAdminDateTime, NO_VALUE } from '../../../lib/format';
import { PromoteButton } from './PromoteButton';
import { ValidationTable } from './ValidationTable';
import { VersionStatusBadge } from './VersionStatusBadge';

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`);

/** A trained version: its model card (where it comes from), its validation, Promote while a candidate. */
export function VersionCard({ v, modelName, imageName }: { v: ModelVersionArtefact; modelName: string; imageName: (id: string) => string }) {
  const { t } = useTranslation();
  const facts: [string, string][] = [
    [t('adminTraining.versions.base'), v.card.baseVersion],
    [
      t('adminTraining.versions.images'),
      t('adminTraining.versions.imagesValue', { count: v.card.imageCount, holdout: v.card.holdoutImageIds.length }),
    ],
    [t('adminTraining.versions.trainedAt'), formatAdminDateTime(v.card.trainedAt)],
    [t('adminTraining.versions.startedBy'), v.card.startedBy?.email ?? NO_VALUE],
    [
      t('adminTraining.versions.network'),
      t('adminTraining.versions.networkValue', { size: size(v.network.size), sha: v.network.sha256.slice(0, 12) }),
    ],
  ];
  return (
    <Card withBorder data-testid="version-card" data-version={v.version} data-status={v.status}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h4">
              {v.version}
            </Title>
            <VersionStatusBadge status={v.status} current={v.isCurrent} />
          </Group>
          {v.status === 'CANDIDATE' && !v.isCurrent && <PromoteButton modelId={v.modelId} modelName={modelName} version={v.version} />}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
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
          {v.runId && (
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {t('adminTraining.versions.run')}
              </Text>
              <Anchor component={Link} to={`/admin/training/${v.runId}`} size="sm">
                {v.runId.slice(0, 8)}
              </Anchor>
            </Stack>
          )}
        </SimpleGrid>
        <div>
          <Text size="xs" c="dimmed">
            {t('adminTraining.versions.parameters')}
          </Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {JSON.stringify(v.card.parameters)}
          </Code>
        </div>
        <div>
          <Title order={3} size="h5" mb={4}>
            {t('adminTraining.validation.title')}
          </Title>
          <ValidationTable validation={v.validation} baseVersion={v.card.baseVersion} candidateVersion={v.version} imageName={imageName} />
        </div>
      </Stack>
    </Card>
  );
}
