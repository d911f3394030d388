/** One cell of the admin jobs table (back-office.md §2 "Jobs list" columns). */
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminJobRow } from '@lamella/contracts';
import { seconds } from '../common/format';
import { adminRating, companyOf, fullName, imageName } from './api';
import { jobStatusColor } from '../../../lib/jobStatus';
import { useModelName } from '../../../lib/modelName';
import type { JobColumn } from './filters';

export function JobCell({ job, col }: { job: AdminJobRow; col: JobColumn }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  switch (col) {
    case 'owner':
      return fullName(job.owner);
    case 'company':
      return companyOf(job) ?? '—';
    case 'userRating':
      return job.userFeedback?.rating ?? job.userRating ?? '—';
    case 'adminRating': {
      const r = adminRating(job);
      return r.mean === null ? '—' : t('adminJobs.ratingWithVotes', { mean: r.mean.toFixed(2), votes: t('admin.jobs.votes', { count: r.count }) });
    }
    case 'duration':
      return job.durationMs === null ? '—' : t('admin.jobs.seconds', { value: seconds(job.durationMs) });
    case 'waitTime':
      return job.waitMs === null ? '—' : t('admin.jobs.seconds', { value: seconds(job.waitMs) });
    case 'status':
      return (
        <Badge color={jobStatusColor(job.status)} variant="light">
          {t(`admin.jobs.statuses.${job.status}`, { defaultValue: job.status })}
        </Badge>
      );
    case 'source':
      return t(`admin.jobs.sources.${job.source}`, { defaultValue: job.source });
    case 'model':
      return t('adminJobs.modelWithVersion', { model: nameOf(job.model), version: job.modelVersion });
    case 'project':
      return job.project?.name ?? '—';
    case 'image':
      return imageName(job) ?? '—';
    case 'deleted':
      return job.deleted ? t('admin.yes') : t('admin.no');
    case 'submittedMasks':
      return job.submittedMasks;
  }
}
