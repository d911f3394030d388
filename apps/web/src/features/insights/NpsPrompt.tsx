import { Button, Card, CloseButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errorText';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useAnswerNps, useDismissNps, useNpsPrompt } from './npsApi';

const SCORES = Array.from({ length: 11 }, (_, i) => i);

/**
 * The NPS question on the dashboard, once the user has enough successful jobs and has not answered (or closed it)
 * within the period: a 0–10 choice, an optional comment, Send; the cross or "Not now" closes it for the period.
 */
export function NpsPrompt() {
  const { t } = useTranslation();
  const prompt = useNpsPrompt();
  const answer = useAnswerNps();
  const dismiss = useDismissNps();
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  if (!prompt.data?.due) return null;
  const close = () => dismiss.mutate(undefined, { onError: (e) => notifyError(errorText(t, e)) });
  const send = () => {
    if (score === null) return;
    answer.mutate(
      { score, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      { onSuccess: (r) => notifySuccess(r.message), onError: (e) => notifyError(errorText(t, e)) },
    );
  };
  return (
    <Card withBorder padding="md" data-testid="nps-prompt" role="region" aria-label={t('insights.nps.question')}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text fw={600}>{t('insights.nps.question')}</Text>
          <CloseButton aria-label={t('insights.nps.later')} onClick={close} disabled={dismiss.isPending} />
        </Group>
        <Group gap={4} wrap="wrap" role="radiogroup" aria-label={t('insights.nps.question')}>
          {SCORES.map((s) => (
            <Button
              key={s}
              size="xs"
              px={0}
              w={34}
              variant={score === s ? 'filled' : 'default'}
              role="radio"
              aria-checked={score === s}
              aria-label={t('insights.nps.scoreLabel', { score: s })}
              onClick={() => setScore(s)}
            >
              {s}
            </Button>
          ))}
        </Group>
        <Group justify="space-between" gap="xs">
          <Text size="xs" c="dimmed">
            {t('insights.nps.notLikely')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('insights.nps.veryLikely')}
          </Text>
        </Group>
        {score !== null ? (
          <Textarea
            label={t('insights.nps.comment')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            maxLength={2000}
            autosize
            minRows={2}
          />
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="subtle" onClick={close} loading={dismiss.isPending}>
            {t('insights.nps.later')}
          </Button>
          <Button onClick={send} disabled={score === null} loading={answer.isPending}>
            {t('insights.nps.send')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
