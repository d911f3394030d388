import { Alert, Anchor, Code, Loader, Modal } from '@mantine/core';
import { IconMoodSad } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { jobsApi } from '@lamella/contracts';
import { call } from '../../api/client';

/**
 * Failed job: the apology after a 1 s delay; ADMIN also gets a link to the error details (§2, §6, §8). When the
 * model refused the image (blank, too small, too few grains…), the panel says why, in the job's language.
 */
export function ErrorPanel({ jobId, isAdmin, reason }: { jobId: string; isAdmin: boolean; reason?: { code: string; message: string } | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const [details, setDetails] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), 1000);
    return () => clearTimeout(timer);
  }, []);
  const error = useQuery({
    queryKey: ['jobs', 'error', jobId],
    queryFn: () => call(jobsApi.error, { params: { id: jobId } }),
    enabled: details,
  });
  if (!visible) return null;
  return (
    <Alert
      color={reason ? 'orange' : 'red'}
      icon={<IconMoodSad size={20} />}
      title={reason ? t('results.error.refusedTitle') : t('results.error.title')}
      data-testid="job-error-panel"
      data-code={reason?.code}
    >
      {reason ? reason.message : t('results.error.apology')}
      {isAdmin && (
        <>
          {' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setDetails(true)}>
            {t('results.error.details')}
          </Anchor>
          <Modal opened={details} onClose={() => setDetails(false)} title={t('results.error.details')} size="lg">
            {error.isPending ? (
              <Loader size="sm" />
            ) : (
              <Code block style={{ whiteSpace: 'pre-wrap' }}>
                {error.data?.error ?? t('results.error.noDetails')}
              </Code>
            )}
          </Modal>
        </>
      )}
    </Alert>
  );
}
