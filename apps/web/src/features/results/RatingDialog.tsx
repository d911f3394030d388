import { Modal, Rating, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { FormActions } from '../../components/FormActions';
import { feedbackApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { invalidateJobs } from '../jobs/api';
import type { JobListRow } from '../jobs/types';

/** Validation of user-app.md §5: a rating must be greater than 0. Returns the message key or null. */
export function ratingError(rating: number): string | null {
  return rating > 0 ? null : 'model.rating.ratingError';
}

/** Rating dialog: stars 1-5 (a tooltip text for 0..5), optional comment; opens with the existing rating. */
export function RatingDialog({ job, opened, onClose }: { job: JobListRow; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  // Mounted when the dialog opens (JobItem), so the state starts from the job's current rating.
  const [rating, setRating] = useState(job.userFeedback?.rating ?? 0);
  const [hover, setHover] = useState(-1);
  const [comment, setComment] = useState(job.userFeedback?.comment ?? '');
  const [error, setError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: () => call(feedbackApi.rate, { body: { jobId: job.id, rating, comment: comment.trim() || undefined } }),
    onSuccess: () => {
      notifications.show({ color: 'green', title: t('model.rating.thanksTitle'), message: t('model.rating.thanksText') });
      invalidateJobs(qc);
      onClose();
    },
    onError: (e) => setError(errorText(t, e, 'model.rating.saveFailed')),
  });

  const submit = () => {
    const key = ratingError(rating);
    if (key) return setError(t(key));
    save.mutate();
  };

  const shown = hover > 0 ? hover : rating;
  return (
    <Modal opened={opened} onClose={onClose} title={t('model.rating.title')} centered>
      <Stack>
        <Stack gap={4} align="center">
          <Rating
            value={rating}
            onChange={(v) => {
              setRating(v);
              setError(null);
            }}
            onHover={setHover}
            size="xl"
            count={5}
            getSymbolLabel={(i) => t(`model.rating.tooltips.${i}`)}
            aria-label={t('model.rating.stars')}
            data-testid="rating-stars"
          />
          <Text size="sm" c="dimmed" aria-live="polite" data-testid="rating-tooltip">
            {t(`model.rating.tooltips.${shown}`)}
          </Text>
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
        </Stack>
        <Textarea
          label={t('model.rating.comment')}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          autosize
          minRows={3}
          maxLength={5000}
        />
        <FormActions
          submitLabel={t('model.rating.submit')}
          onSubmit={submit}
          onCancel={onClose}
          cancelLabel={t('model.common.cancel')}
          loading={save.isPending}
        />
      </Stack>
    </Modal>
  );
}
