/** Admin job detail (back-office.md §2 "Job detail"): polled every 5 s, spinner until loaded, admin feedback. */
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  CopyButton,
  Group,
  Input,
  Loader,
  Modal,
  Paper,
  Rating,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconArrowLeft, IconCheck, IconCopy, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../../api/client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { bytes, errorText, formatDateTime, seconds } from '../common/format';
import { adminJobsApi, adminRating, feedbackScore, fullName, imageName, resultItems, type AdminJob, type FeedbackBody } from './api';

export const JOB_POLL_MS = 5_000;
export const COPY_CONFIRM_MS = 2_000;
const RATINGS = ['scaleNumber', 'scaleLength', 'resin', 'results'] as const;
const STATUS_COLOR: Record<string, string> = { NEW: 'gray', PENDING: 'blue', FINISHED: 'green', CACHED: 'teal', FAILED: 'red' };

/** Ratings must each be above 0 (back-office.md §5); returns the message key per missing rating. */
export function feedbackErrors(
  v: Pick<FeedbackBody, 'scaleNumber' | 'scaleLength' | 'resin' | 'results'>,
): Partial<Record<(typeof RATINGS)[number], string>> {
  const keys = {
    scaleNumber: 'scaleNumberRequired',
    scaleLength: 'scaleLengthRequired',
    resin: 'resinRequired',
    results: 'resultsRequired',
  } as const;
  const out: Partial<Record<(typeof RATINGS)[number], string>> = {};
  for (const r of RATINGS) if (!(v[r] > 0)) out[r] = keys[r];
  return out;
}

function FeedbackModal({ jobId, opened, onClose }: { jobId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useForm({
    initialValues: { scaleNumber: 0, scaleLength: 0, resin: 0, results: 0, comment: '' },
    validate: (v) => Object.fromEntries(Object.entries(feedbackErrors(v)).map(([k, key]) => [k, t(`admin.job.${key}`)])),
  });
  const add = useMutation({
    mutationFn: () => {
      const v = form.values;
      return adminJobsApi.addFeedback(jobId, {
        scaleNumber: v.scaleNumber,
        scaleLength: v.scaleLength,
        resin: v.resin,
        results: v.results,
        ...(v.comment.trim() ? { comment: v.comment.trim() } : {}),
      });
    },
    onSuccess: async () => {
      notifySuccess(t('admin.job.feedbackAdded'));
      form.reset();
      onClose();
      await qc.invalidateQueries({ queryKey: ['admin', 'job', jobId] });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const labels: Record<(typeof RATINGS)[number], string> = {
    scaleNumber: t('admin.job.scaleNumber'),
    scaleLength: t('admin.job.scaleLength'),
    resin: t('admin.job.resin'),
    results: t('admin.job.resultsRating'),
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('admin.job.feedbackTitle')}>
      <form onSubmit={form.onSubmit(() => add.mutate())} noValidate>
        <Stack>
          {RATINGS.map((r) => {
            const value = form.values[r];
            return (
              <Input.Wrapper key={r} label={labels[r]} withAsterisk error={form.errors[r]}>
                <Group gap="sm" mt={4}>
                  <Rating value={value} onChange={(v) => form.setFieldValue(r, v)} count={5} aria-label={labels[r]} data-testid={`rating-${r}`} />
                  <Text size="xs" c="dimmed">
                    {value > 0 ? `${value} – ${t(`admin.job.ratingLevels.${value}`)}` : ''}
                  </Text>
                </Group>
              </Input.Wrapper>
            );
          })}
          <Textarea label={t('admin.job.comment')} autosize minRows={2} {...form.getInputProps('comment')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('admin.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending}>
              {t('admin.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={{ base: 120, sm: 200 } as unknown as number} style={{ verticalAlign: 'top', whiteSpace: 'normal' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ wordBreak: 'break-word' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

const diffSeconds = (a?: string | null, b?: string | null) => (a && b ? seconds(new Date(b).getTime() - new Date(a).getTime()) : null);

function AdminFeedbackList({ job }: { job: AdminJob }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => adminJobsApi.removeFeedback(id),
    onSuccess: async () => {
      notifySuccess(t('admin.job.feedbackDeleted'));
      await qc.invalidateQueries({ queryKey: ['admin', 'job', job.id] });
    },
    onError: (e) => notifyError(errorText(e, t('admin.error'))),
  });
  const list = job.adminFeedback ?? [];
  const mean = adminRating(job).mean;
  if (list.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('admin.job.noFeedback')}
      </Text>
    );
  return (
    <Stack gap={6}>
      {mean !== null && (
        <Text size="sm" fw={600} data-testid="admin-feedback-mean">
          {t('admin.job.mean', { value: mean.toFixed(2) })}
        </Text>
      )}
      {list.map((f) => (
        <Paper key={f.id} withBorder p="xs" data-testid="admin-feedback">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text size="sm" fw={600}>
                {feedbackScore(f).toFixed(2)} · {fullName(f.user ?? null)} · {formatDateTime(f.createdAt)}
              </Text>
              <Text size="xs" c="dimmed">
                {t('admin.job.scaleNumber')} {f.scaleNumber} · {t('admin.job.scaleLength')} {f.scaleLength} · {t('admin.job.resin')} {f.resin} ·{' '}
                {t('admin.job.resultsRating')} {f.results}
              </Text>
              {f.comment && <Text size="sm">{f.comment}</Text>}
            </div>
            <ActionIcon
              color="red"
              variant="subtle"
              aria-label={t('admin.job.deleteFeedback')}
              onClick={() => confirmDelete(t, t('admin.job.deleteFeedbackConfirm'), () => remove.mutate(f.id))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}

export function JobDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [adding, setAdding] = useState(false);
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
    return <Alert color="red">{notFound ? t('admin.job.notFound') : errorText(job.error, t('admin.error'))}</Alert>;
  }
  const j = job.data;
  const img = j.image;
  const width = img?.width ?? img?.meta?.width;
  const height = img?.height ?? img?.meta?.height;
  const format = img?.format ?? img?.meta?.format;
  const masks = j.masks ?? [];
  const edited = j.editedMasks ?? masks.filter((m) => m.parentId);
  const items = resultItems(j);
  const nodeName = j.executor?.node?.name ?? j.executor?.nodeName ?? null;
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
      <Title order={2} style={{ wordBreak: 'break-all' }}>
        {t('admin.job.title', { id: j.id })}
      </Title>
      <Paper withBorder>
        <Table verticalSpacing="xs" data-testid="job-detail-table" layout="fixed">
          <Table.Tbody>
            <Row label={t('admin.job.model')}>{j.model?.displayName ?? j.model?.name ?? '—'}</Row>
            <Row label={t('admin.job.modelVersion')}>{j.modelVersion ?? '—'}</Row>
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
              <Badge color={STATUS_COLOR[j.status] ?? 'gray'} variant="light" data-testid="job-status">
                {t(`admin.jobs.statuses.${j.status}`, { defaultValue: j.status })}
              </Badge>
            </Row>
            <Row label={t('admin.job.createdAt')}>{formatDateTime(j.createdAt)}</Row>
            <Row label={t('admin.job.startedAt')}>
              {formatDateTime(j.startedAt)}
              {delay !== null && ` (${t('admin.job.delay', { value: delay })})`}
            </Row>
            <Row label={t('admin.job.finishedAt')}>
              {formatDateTime(j.finishedAt)}
              {duration !== null && ` (${t('admin.job.duration', { value: duration })})`}
            </Row>
            <Row label={t('admin.job.inputImage')}>
              {img ? (
                <Stack gap={0}>
                  <Text size="sm">{t('admin.job.original', { name: imageName(j) ?? '—' })}</Text>
                  <Text size="sm" c="dimmed">
                    {t('admin.job.stored', { name: img.filename ?? '—' })}
                  </Text>
                </Stack>
              ) : (
                '—'
              )}
            </Row>
            <Row label={t('admin.job.inputPreview')}>
              {img ? [width && height ? `${width} × ${height}` : null, format, bytes(img.size)].filter(Boolean).join(' · ') : '—'}
            </Row>
            {j.status === 'FAILED' && (
              <Row label={t('admin.job.errors')}>
                <Text size="sm" c="red" component="pre" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
                  {j.error ?? '—'}
                </Text>
              </Row>
            )}
            <Row label={t('admin.job.results')}>{items.length ? t('admin.job.resultItems', { count: items.length }) : t('admin.job.none')}</Row>
            <Row label={t('admin.job.masks')}>{masks.length ? masks.map((m) => m.label ?? m.filename ?? m.id).join(', ') : t('admin.job.none')}</Row>
            <Row label={t('admin.job.editedMasks')}>
              {edited.length
                ? edited.map((m) => `${m.label ?? m.filename ?? m.id}${m.isSubmitted ? ` (${t('admin.job.submitted')})` : ''}`).join(', ')
                : t('admin.job.none')}
            </Row>
            <Row label={t('admin.job.userFeedback')}>
              {j.userFeedback?.rating ? (
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
                <AdminFeedbackList job={j} />
                <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)} w="fit-content">
                  {t('admin.job.addFeedback')}
                </Button>
              </Stack>
            </Row>
          </Table.Tbody>
        </Table>
      </Paper>
      <FeedbackModal jobId={j.id} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
