import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminJobDetail } from '@lamella/contracts';
import { IconPlayerSkipForward, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { adminJobsApi, fullName } from './api';

/**
 * "Re-run for the customer" (JOB.WRITE: a new job of the owner, no licence unit, audited; confirmed first) and
 * "Next job" of the rating queue (the next finished job without an administrator rating).
 */
export function JobActions({ job, canWrite }: { job: AdminJobDetail; canWrite: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const rerun = useMutation({
    mutationFn: () => adminJobsApi.rerun(job.id),
    onSuccess: async (r) => {
      notifySuccess(r.message);
      await qc.invalidateQueries({ queryKey: ['admin', 'jobs'] });
      void navigate(`/admin/jobs/${r.id}`);
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const next = useMutation({
    mutationFn: () => adminJobsApi.nextToRate(job.id),
    onSuccess: (r) => (r.id ? void navigate(`/admin/jobs/${r.id}`) : notifySuccess(t('adminJobs.next.none'))),
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
  });
  const confirmRerun = () =>
    modals.openConfirmModal({
      title: t('adminJobs.rerun.confirmTitle'),
      children: <Text size="sm">{t('adminJobs.rerun.confirm', { owner: fullName(job.owner) })}</Text>,
      labels: { confirm: t('adminJobs.rerun.button'), cancel: t('admin.cancel') },
      onConfirm: () => rerun.mutate(),
    });
  return (
    <Group gap="xs" wrap="wrap">
      {canWrite && !job.deleted ? (
        <Button size="sm" leftSection={<IconRefresh size={16} />} onClick={confirmRerun} loading={rerun.isPending} data-testid="job-rerun">
          {t('adminJobs.rerun.button')}
        </Button>
      ) : null}
      <Button
        size="sm"
        variant="light"
        rightSection={<IconPlayerSkipForward size={16} />}
        onClick={() => next.mutate()}
        loading={next.isPending}
        title={t('adminJobs.next.title')}
        data-testid="job-next"
      >
        {t('adminJobs.next.button')}
      </Button>
    </Group>
  );
}
