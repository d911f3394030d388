import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Job } from '@lamella/contracts';
import { StatusBadge } from '../jobs/StatusBadge';
import { useJobPoll } from './api';
import { recipeJobValue } from './format';

/**
 * One job started with a recipe: its image, status (in the reader's language) and what it measured (thickness,
 * area fraction, cracks, in the reader's number style), with a link to its whole result. Wraps on a phone, so the
 * value is never cut off.
 */
export function RecipeJobRow({ job, imageName }: { job: Job; imageName: string }) {
  const { t, i18n } = useTranslation();
  const { data } = useJobPoll(job.id);
  const current = data ?? job;
  const measured = recipeJobValue((current.result?.measurements ?? {}) as Record<string, unknown>, i18n.language);
  const value = measured ? t(measured.key, measured.vars) : (current.failureReason?.message ?? '');
  const done = current.status === 'FINISHED' || current.status === 'CACHED';
  return (
    <Group
      data-testid="recipe-job"
      justify="space-between"
      gap="xs"
      wrap="wrap"
      py={6}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
        <Text size="sm" truncate="end" title={imageName}>
          {imageName}
        </Text>
        <StatusBadge status={current.status} />
      </Group>
      <Group gap="sm" wrap="wrap">
        <Text size="sm" fw={500} data-testid="recipe-job-value">
          {value}
        </Text>
        {done && (
          <Anchor component={Link} to={`/models/${encodeURIComponent(current.model.name)}?job=${encodeURIComponent(current.id)}`} size="sm">
            {t('recipes.apply.openResult')}
          </Anchor>
        )}
      </Group>
    </Group>
  );
}
