import { Alert, Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useJob } from '../jobs/api';
import { ResultItems } from './ResultItems';

/**
 * The results of a finished job, read by id when its panel opens: list rows carry only the result's brief (issue 30),
 * the items (tables, charts, images, messages) come with the job itself.
 */
export function JobResultPanel({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  const job = useJob(jobId);
  if (job.data) return <ResultItems job={job.data} />;
  if (job.isError)
    return (
      <Alert color="red" data-testid="job-result-failed">
        {t('results.panel.loadFailed')}
      </Alert>
    );
  return (
    <Center py="lg" data-testid="job-result-loading">
      <Loader size="sm" aria-label={t('results.panel.loading')} />
    </Center>
  );
}
