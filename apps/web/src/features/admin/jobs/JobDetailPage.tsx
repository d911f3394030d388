/**
 * Admin job detail (back-office.md §2 "Job detail"): polled every 5 s, spinner until loaded, admin feedback; the
 * review (images, key values, owner, masks), every attempt, "Re-run for the customer" and "Next job" (issue 26).
 */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Paper,
  Rating,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconArrowLeft, IconCheck, IconCopy, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { hasPermission, useMe } from '../../auth/session';
import { bytes, seconds } from '../common/format';
import { errorText } from '../../../lib/errorText';
import { formatAdminDateTime } from '../../../lib/format';
import { adminJobsApi, imageName, resultItems } from './api';
import { AdminFeedbackList } from './AdminFeedbackList';
import { DetailRow as Row } from './DetailRow';
import { FeedbackModal } from './FeedbackModal';
import { JobActions } from './JobActions';
import { JobAttempts } from './JobAttempts';
import { JobReview } from './JobReview';
import { jobStatusColor } from '../../../lib/jobStatus';
import { useModelName } from '../../../lib/modelName';

export const JOB_POLL_MS = 5_000;
export const COPY_CONFIRM_MS = 2_000;

const diffSeconds = (a?: string | null, b?: string | null) => (a && b ? seconds(new Date(b).getTime() - new Date(a).getTime()) : null);

export function JobDetailPage() {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const { id = '' } = useParams();
  const [adding, setAdding] = useState(false);
  // Reading needs JOB.READ; adding or deleting administrator feedback needs JOB.WRITE.
  const canWrite = hasPermission(useMe().data, 'JOB.WRITE');
  const job = useQuery({ queryKey: ['admin', 'job', id], queryFn: () => adminJobsApi.get(id), refetchInterval: JOB_POLL_MS });

  if (job.isPending) {
    return (
      <Center p="xl">
        <Loader aria-label={t('admin.loading')} />
      </Center>
    );
  }
  if (job.isError) {
    const notFound = isApiError(job.error) && job.error.statusCode === 404;
    return <Alert color="red">{notFound ? t('admin.job.notFound') : errorText(t, job.error, 'admin.error')}</Alert>;
  }
  const j = job.data;
  const img = j.image;
  const masks = j.masks;
  const edited = j.editedMasks;
  const items = resultItems(j);
  const nodeName = j.executor?.nodeName ?? null;
  const delay = diffSeconds(j.createdAt, j.startedAt);
  const duration = diffSeconds(j.startedAt, j.finishedAt);
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Anchor component={Link} to="/admin/jobs" size="sm">
          <Group gap={4}>
            <IconArrowLeft size={14} />
            {t('admin.job.back')}
          </Group>
        </Anchor>
      </Group>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={2} style={{ wordBreak: 'break-all', minWidth: 0, flex: '1 1 320px' }}>
          {t('admin.job.title', { id: j.id })}
        </Title>
        <JobActions job={j} canWrite={canWrite} />
      </Group>
      <JobReview job={j} />
      <Paper withBorder>
        <Table verticalSpacing="xs" data-testid="job-detail-table" layout="fixed">
          <Table.Tbody>
            <Row label={t('admin.job.model')}>{nameOf(j.model)}</Row>
            <Row label={t('admin.job.modelVersion')}>{j.modelVersion}</Row>
            <Row label={t('admin.job.computeOn')}>{nodeName ?? '—'}</Row>
            <Row label={t('admin.job.launcherId')}>
              {j.executor?.id ? (
                <Group gap={4} wrap="nowrap">
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {j.executor.id}
                  </Text>
                  <CopyButton value={j.executor.id} timeout={COPY_CONFIRM_MS}>
                    {({ copied, copy }) => (
                      <Tooltip label={copied ? t('admin.copied') : t('admin.copy')} withArrow>
                        <ActionIcon color={copied ? 'teal' : 'gray'} variant="subtle" onClick={copy} aria-label={t('admin.copy')}>
                          {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </CopyButton>
                </Group>
              ) : (
                '—'
              )}
            </Row>
            <Row label={t('admin.job.status')}>
              <Badge color={jobStatusColor(j.status)} variant="light" data-testid="job-status">
                {t(`admin.jobs.statuses.${j.status}`, { defaultValue: j.status })}
              </Badge>
            </Row>
            <Row label={t('admin.job.createdAt')}>{formatAdminDateTime(j.createdAt)}</Row>
            <Row label={t('admin.job.startedAt')}>
              {delay !== null
                ? t('adminJobs.withDetail', { value: formatAdminDateTime(j.startedAt), detail: t('admin.job.delay', { value: delay }) })
                : formatAdminDateTime(j.startedAt)}
            </Row>
            <Row label={t('admin.job.finishedAt')}>
              {duration !== null
                ? t('adminJobs.withDetail', { value: formatAdminDateTime(j.finishedAt), detail: t('admin.job.duration', { value: duration }) })
                : formatAdminDateTime(j.finishedAt)}
            </Row>
            <Row label={t('adminJobs.heartbeatAt')}>
              <Text size="sm" data-testid="job-heartbeat">
                {j.heartbeatAt ? formatAdminDateTime(j.heartbeatAt) : t('adminJobs.noHeartbeat')}
              </Text>
            </Row>
            <Row label={t('admin.job.inputImage')}>
              <Stack gap={0}>
                <Text size="sm">{t('admin.job.original', { name: imageName(j) ?? '—' })}</Text>
                <Text size="sm" c="dimmed">
                  {t('admin.job.stored', { name: img.filename })}
                </Text>
              </Stack>
            </Row>
            <Row label={t('admin.job.inputPreview')}>
              {[img.width && img.height ? t('adminJobs.dimensions', { width: img.width, height: img.height }) : null, img.format, bytes(img.size)]
                .filter(Boolean)
                .join(' · ')}
            </Row>
            {j.status === 'FAILED' && (
              <Row label={t('admin.job.errors')}>
                <Text size="sm" c="red" component="pre" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                  {j.error ?? '—'}
                </Text>
              </Row>
            )}
            <Row label={t('admin.job.results')}>{items.length ? t('admin.job.resultItems', { count: items.length }) : t('admin.job.none')}</Row>
            <Row label={t('admin.job.masks')}>{masks.length ? masks.map((m) => m.label || m.filename).join(', ') : t('admin.job.none')}</Row>
            <Row label={t('admin.job.editedMasks')}>
              {edited.length
                ? edited
                    .map((m) =>
                      m.isSubmitted
                        ? t('adminJobs.withDetail', { value: m.label || m.filename, detail: t('admin.job.submitted') })
                        : m.label || m.filename,
                    )
                    .join(', ')
                : t('admin.job.none')}
            </Row>
            <Row label={t('admin.job.userFeedback')}>
              {j.userFeedback ? (
                <Stack gap={2}>
                  <Rating value={j.userFeedback.rating} readOnly size="sm" />
                  {j.userFeedback.comment && <Text size="sm">{j.userFeedback.comment}</Text>}
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">
                  {t('admin.job.noFeedback')}
                </Text>
              )}
            </Row>
            <Row label={t('admin.job.adminFeedbacks')}>
              <Stack gap="xs">
                <AdminFeedbackList job={j} canWrite={canWrite} />
                {canWrite && (
                  <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)} w="fit-content">
                    {t('admin.job.addFeedback')}
                  </Button>
                )}
              </Stack>
            </Row>
          </Table.Tbody>
        </Table>
      </Paper>
      <JobAttempts job={j} />
      <FeedbackModal jobId={j.id} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
