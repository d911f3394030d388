/** The filters of the admin jobs list (back-office.md §2 "Jobs list"), collapsible. */
import { Checkbox, Collapse, Group, Paper, Select, SimpleGrid, TextInput } from '@mantine/core';
import type { ModelShort } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { useModelName } from '../../../lib/modelName';
import { DELETED_OPTIONS, JOB_SOURCES, JOB_STATUSES, type JobFilters } from './filters';

export function JobFiltersPanel({
  filters,
  filtersOpen,
  models,
  update,
}: {
  filters: JobFilters;
  filtersOpen: boolean;
  models: ModelShort[];
  update: (patch: Partial<JobFilters>) => void;
}) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const modelOptions = models.map((m) => ({ value: m.id, label: nameOf(m) || m.id }));
  const flagBox = (key: 'withUserFeedback' | 'withAdminFeedback' | 'withSubmittedMasks') => (
    <Checkbox label={t(`admin.jobs.${key}`)} checked={filters[key]} onChange={(e) => update({ [key]: e.currentTarget.checked })} />
  );
  return (
    <Collapse in={filtersOpen}>
      <Paper withBorder p="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
          <TextInput
            type="date"
            label={t('admin.jobs.startDate')}
            value={filters.startDate ?? ''}
            onChange={(e) => update({ startDate: e.currentTarget.value || undefined })}
          />
          <TextInput
            type="date"
            label={t('admin.jobs.endDate')}
            value={filters.endDate ?? ''}
            onChange={(e) => update({ endDate: e.currentTarget.value || undefined })}
          />
          <Select
            label={t('admin.jobs.model')}
            placeholder={t('admin.jobs.any')}
            data={modelOptions}
            value={filters.modelId ?? null}
            onChange={(v) => update({ modelId: v ?? undefined })}
            clearable
            searchable
          />
          <TextInput
            key={`u-${filters.userId ?? ''}`}
            label={t('admin.jobs.userId')}
            defaultValue={filters.userId ?? ''}
            onBlur={(e) => update({ userId: e.currentTarget.value.trim() || undefined })}
            onKeyDown={(e) => e.key === 'Enter' && update({ userId: e.currentTarget.value.trim() || undefined })}
          />
          <TextInput
            key={`c-${filters.company ?? ''}`}
            label={t('admin.jobs.company')}
            defaultValue={filters.company ?? ''}
            onBlur={(e) => update({ company: e.currentTarget.value.trim() || undefined })}
            onKeyDown={(e) => e.key === 'Enter' && update({ company: e.currentTarget.value.trim() || undefined })}
            data-testid="filter-company"
          />
          <Select
            label={t('admin.jobs.deleted')}
            data={DELETED_OPTIONS.map((v) => ({ value: v, label: t(`admin.jobs.deletedOptions.${v}`) }))}
            value={filters.deleted}
            allowDeselect={false}
            onChange={(v) => update({ deleted: (v ?? 'NOT_DELETED') as JobFilters['deleted'] })}
          />
          <Select
            label={t('admin.jobs.status')}
            placeholder={t('admin.jobs.any')}
            data={JOB_STATUSES.map((v) => ({ value: v, label: t(`admin.jobs.statuses.${v}`) }))}
            value={filters.status ?? null}
            onChange={(v) => update({ status: v ?? undefined })}
            clearable
          />
          <Select
            label={t('admin.jobs.source')}
            placeholder={t('admin.jobs.any')}
            data={JOB_SOURCES.map((v) => ({ value: v, label: t(`admin.jobs.sources.${v}`) }))}
            value={filters.source ?? null}
            onChange={(v) => update({ source: v ?? undefined })}
            clearable
          />
        </SimpleGrid>
        <Group mt="sm" gap="lg" wrap="wrap">
          {flagBox('withUserFeedback')}
          {flagBox('withAdminFeedback')}
          {flagBox('withSubmittedMasks')}
        </Group>
      </Paper>
    </Collapse>
  );
}
