import { Button, Modal, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/FormActions';
import { feedbackApi } from '@lamella/contracts';
import { call } from '../../api/client';
import type { JobListRow } from '../jobs/types';

/** Issue report dialog: a form, then a success screen; closing resets; a failure is only logged (§8). */
export function IssueReportDialog({ job, opened, onClose }: { job: JobListRow; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: () =>
      call(feedbackApi.reportIssue, {
        body: {
          jobId: job.id,
          calculationDate: job.finishedAt ?? job.createdAt,
          modelName: job.model.displayName,
          modelVersion: job.modelVersion,
          details: details.trim(),
        },
      }),
    onError: (e) => console.error('issue report failed', e),
  });

  const close = () => {
    onClose();
    setDetails('');
    setError(null);
    send.reset();
  };

  const submit = () => {
    if (!details.trim()) return setError(t('model.issue.detailsRequired'));
    send.mutate();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('model.issue.title')} centered>
      {send.isSuccess ? (
        <Stack align="center" py="md" data-testid="issue-success">
          <ThemeIcon color="green" size={48} radius="xl">
            <IconCheck size={28} />
          </ThemeIcon>
          <Text ta="center" fw={500}>
            {t('model.issue.successTitle')}
          </Text>
          <Text ta="center" size="sm" c="dimmed">
            {t('model.issue.successText')}
          </Text>
          <Button onClick={close}>{t('model.common.close')}</Button>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm" c="dimmed">
            {t('model.issue.intro', { model: job.model.displayName, version: job.modelVersion, image: job.image.orginalFilename })}
          </Text>
          <Textarea
            label={t('model.issue.details')}
            placeholder={t('model.issue.placeholder')}
            value={details}
            onChange={(e) => {
              setDetails(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            autosize
            minRows={4}
            maxLength={10000}
            required
            data-autofocus
          />
          <FormActions
            submitLabel={t('model.issue.send')}
            onSubmit={submit}
            onCancel={close}
            cancelLabel={t('model.common.cancel')}
            loading={send.isPending}
          />
        </Stack>
      )}
    </Modal>
  );
}
