import { ActionIcon, Stack, Text, Tooltip } from '@mantine/core';
import { IconFlag, IconFlagFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { averageScore, feedbackColor } from '../jobs/format';
import type { JobListRow } from '../jobs/types';

export const FLAG_COLORS = { black: 'dark.9', red: 'red.7', orange: 'orange.6', green: 'green.7' } as const;

/** The result's feedback flags as coloured badges (user-app.md §9). */
export function FeedbackFlags({ job }: { job: JobListRow }) {
  const { t } = useTranslation();
  const flags = job.result?.feedback ?? [];
  if (!flags.length) return null;
  const avg = averageScore(flags);
  const color = feedbackColor(avg);
  const label = (
    <Stack gap={2}>
      <Text size="xs" fw={600}>
        {t('results.flags.title', { score: Math.round(avg * 100) })}
      </Text>
      {flags.map((f) => (
        <Text size="xs" key={f.name}>
          {f.value ? '✓' : '✗'} {f.name}
        </Text>
      ))}
    </Stack>
  );
  return (
    <Tooltip label={label} withArrow multiline>
      <ActionIcon
        variant="subtle"
        color={FLAG_COLORS[color]}
        aria-label={t('results.flags.label', { score: Math.round(avg * 100) })}
        data-flag-color={color}
      >
        {avg > 0 ? <IconFlagFilled size={18} /> : <IconFlag size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}
