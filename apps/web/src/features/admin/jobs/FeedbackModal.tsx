/** The "Add feedback" dialog of the admin job detail: four ratings 1..5 and a comment (back-office.md §5). */
import { Group, Input, Modal, Rating, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/FormActions';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { adminJobsApi } from './api';
import { RATINGS, feedbackBody, feedbackErrors } from './feedback';

export function FeedbackModal({ jobId, opened, onClose }: { jobId: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const form = useForm({
    initialValues: { scaleNumber: 0, scaleLength: 0, resin: 0, results: 0, comment: '' },
    validate: (v) => Object.fromEntries(Object.entries(feedbackErrors(v)).map(([k, key]) => [k, t(`admin.job.${key}`)])),
  });
  const add = useMutation({
    mutationFn: () => adminJobsApi.addFeedback(jobId, feedbackBody(form.values)),
    onSuccess: async () => {
      notifySuccess(t('admin.job.feedbackAdded'));
      form.reset();
      onClose();
      await qc.invalidateQueries({ queryKey: ['admin', 'job', jobId] });
    },
    onError: (e) => notifyError(errorText(t, e, 'admin.error')),
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
          <FormActions submitLabel={t('admin.save')} onCancel={onClose} cancelLabel={t('admin.cancel')} loading={add.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
