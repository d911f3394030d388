/** The administrator feedback of a job: mean, each feedback with its scores, delete (JOB.WRITE). */
import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { IconTrash } from '@tabler/icons-react';
import type { AdminJobDetail } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { confirmDelete } from '../common/confirm';
import { errorText } from '../../../lib/errorText';
import { formatAdminDateTime } from '../../../lib/format';
import { adminJobsApi, adminRating, feedbackScore, fullName } from './api';

export function AdminFeedbackList({ job, canWrite }: { job: AdminJobDetail; canWrite: boolean }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) => adminJobsApi.removeFeedback(id),
    onSuccess: async () => {
      notifySuccess(t('admin.job.feedbackDeleted'));
      await qc.invalidateQueries({ queryKey: ['admin', 'job', job.id] });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const list = job.adminFeedback;
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
                {t('adminJobs.feedbackHeading', { score: feedbackScore(f).toFixed(2), by: fullName(f.user), at: formatAdminDateTime(f.createdAt) })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('adminJobs.feedbackScores', {
                  scaleNumber: `${t('admin.job.scaleNumber')} ${f.scaleNumber}`,
                  scaleLength: `${t('admin.job.scaleLength')} ${f.scaleLength}`,
                  resin: `${t('admin.job.resin')} ${f.resin}`,
                  results: `${t('admin.job.resultsRating')} ${f.results}`,
                })}
              </Text>
              {f.comment && <Text size="sm">{f.comment}</Text>}
            </div>
            {canWrite && (
              <ActionIcon
                color="red"
                variant="subtle"
                aria-label={t('admin.job.deleteFeedback')}
                onClick={() => confirmDelete(t, t('admin.job.deleteFeedbackConfirm'), () => remove.mutate(f.id))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
