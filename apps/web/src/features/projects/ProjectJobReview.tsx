import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { projectsApi, type Project } from '@lamella/contracts';
import { IconArrowLeft, IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { errorText } from '../../lib/errorText';
import { formatDateTime } from '../../lib/format';
import { useModelName } from '../../lib/modelName';
import { useJob } from '../jobs/api';
import { formatResultValue } from '../jobs/format';
import { StatusBadge } from '../jobs/StatusBadge';
import { isRunning } from '../jobs/types';
import { JobReportMenu } from '../reports/JobReportMenu';
import { ResultItems } from '../results/ResultItems';
import { keyResultOf } from '../results/keyResult';

/**
 * A job of the project opened on the project page (`?project=…&job=…`): its overlay, charts, tables and job report,
 * read-only for every member (ratings, re-runs and masks stay with the job's owner on their results page).
 */
export function ProjectJobReview({ project, jobId, onBack }: { project: Project; jobId: string; onBack: () => void }) {
  const { t, i18n } = useTranslation();
  const nameOf = useModelName();
  const job = useJob(jobId);
  const back = (
    <Button variant="default" size="xs" leftSection={<IconArrowLeft size={14} />} onClick={onBack}>
      {t('projects.review.back')}
    </Button>
  );
  if (job.isPending) return <Loader aria-label={t('common.loading')} />;
  if (job.isError)
    return (
      <Stack gap="sm">
        <Alert color="red" role="alert">
          {errorText(t, job.error, 'projects.review.loadFailed')}
        </Alert>
        <Group>{back}</Group>
      </Stack>
    );
  const j = job.data;
  const key = keyResultOf(j.result?.measurements);
  const running = isRunning(j.status);
  return (
    <Paper withBorder p="md" data-testid="project-job-review">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          {back}
          {!running && j.status !== 'FAILED' && <JobReportMenu job={j} />}
        </Group>
        <Stack gap={4}>
          <Title order={4} style={{ overflowWrap: 'anywhere' }}>
            {j.image.orginalFilename}
          </Title>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={500}>
              {nameOf(j.model)}
            </Text>
            <StatusBadge status={j.status} />
            {key && (
              <Badge color="dark" variant="outline" size="sm" tt="none" data-testid="key-result">
                {t(key.labelKey, { value: formatResultValue(key.value, key.kind, i18n.language) })}
              </Badge>
            )}
            {j.withMasks && (
              <Badge color="violet" variant="light" size="sm">
                {t('results.badges.withMasks')}
              </Badge>
            )}
            {j.crop && (
              <Badge color="gray" variant="light" size="sm">
                {t('results.badges.cropped')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('projects.review.meta', { version: j.modelVersion, date: formatDateTime(j.createdAt, i18n.language) })}
          </Text>
        </Stack>
        {project.access !== 'OWNER' && (
          <Alert color="gray" variant="light" p="xs" icon={<IconEye size={16} />}>
            {t('projects.review.readOnly')}
          </Alert>
        )}
        {running ? (
          <Text size="sm" c="dimmed">
            {t('results.panel.running')}
          </Text>
        ) : j.status === 'FAILED' ? (
          <Alert color="yellow">{j.failureReason?.message ?? t('projects.review.failed')}</Alert>
        ) : (
          <ResultItems job={j} readOnly displaySrc={urlOf(projectsApi.display, { params: { id: project.id, imageId: j.imageId } })} />
        )}
      </Stack>
    </Paper>
  );
}
