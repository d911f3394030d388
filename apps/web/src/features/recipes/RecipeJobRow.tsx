import { Badge, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Job } from '@lamella/contracts';
import { useJobPoll } from './api';

/** One job started with a recipe: its image, status and what it measured (thickness, area fraction, cracks). */
export function RecipeJobRow({ job, imageName }: { job: Job; imageName: string }) {
  const { t } = useTranslation();
  const { data } = useJobPoll(job.id);
  const current = data ?? job;
  const m = (current.result?.measurements ?? {}) as Record<string, unknown>;
  const value =
    typeof m.meanThicknessUm === 'number'
      ? t('recipes.apply.thickness', { value: m.meanThicknessUm.toFixed(2) })
      : typeof m.areaFractionPercent === 'number'
        ? t('recipes.apply.fraction', { value: m.areaFractionPercent.toFixed(2) })
        : typeof m.crackCount === 'number'
          ? t('recipes.apply.cracks', { count: m.crackCount })
          : (current.failureReason?.message ?? '');
  return (
    <Table.Tr data-testid="recipe-job">
      <Table.Td>{imageName}</Table.Td>
      <Table.Td>
        <Badge variant="light">{current.status}</Badge>
      </Table.Td>
      <Table.Td>
        <Text size="sm" data-testid="recipe-job-value">
          {value}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}
