/** Filters of the images table (owner, start/end day with shortcuts, training, deleted) and the column choices. */
import { Button, Checkbox, Group, Popover, Select, Stack, TextInput } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OwnerFilter } from './OwnerFilter';
import { TrainableModelFilter } from '../training/TrainableModelFilter';
import { DEFAULT_PREFS, IMAGE_COLUMNS, SHORTCUTS, shortcutRange, type ImagePrefs, type YesNo } from './prefs';

export function ImagesFilters({ prefs, update }: { prefs: ImagePrefs; update: (patch: Partial<ImagePrefs>) => void }) {
  const { t } = useTranslation();
  const yesNoData = [
    { value: 'yes', label: t('admin.yes') },
    { value: 'no', label: t('admin.no') },
  ];
  const invalidRange = prefs.startDate && prefs.endDate && prefs.startDate > prefs.endDate;
  return (
    <Stack gap="xs">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <OwnerFilter value={prefs.userId} onChange={(userId) => update({ userId })} />
        <TextInput
          type="date"
          label={t('adminImages.filters.startDate')}
          value={prefs.startDate ?? ''}
          onChange={(e) => update({ startDate: e.currentTarget.value || null })}
          data-testid="filter-start"
          w={{ base: '47%', sm: 160 }}
        />
        <TextInput
          type="date"
          label={t('adminImages.filters.endDate')}
          value={prefs.endDate ?? ''}
          onChange={(e) => update({ endDate: e.currentTarget.value || null })}
          error={invalidRange ? t('adminImages.errors.dateRange') : undefined}
          data-testid="filter-end"
          w={{ base: '47%', sm: 160 }}
        />
        <Select
          label={t('adminImages.columns.training')}
          placeholder={t('adminImages.filters.all')}
          data={yesNoData}
          value={prefs.training}
          onChange={(v) => update({ training: v as YesNo })}
          clearable
          w={{ base: '47%', sm: 120 }}
          data-testid="filter-training"
        />
        <TrainableModelFilter value={prefs.trainableModelId} onChange={(trainableModelId) => update({ trainableModelId })} />
        <Select
          label={t('adminImages.columns.deleted')}
          placeholder={t('adminImages.filters.all')}
          data={yesNoData}
          value={prefs.deleted}
          onChange={(v) => update({ deleted: v as YesNo })}
          clearable
          w={{ base: '47%', sm: 120 }}
          data-testid="filter-deleted"
        />
      </Group>
      <Group gap="xs" wrap="wrap">
        {SHORTCUTS.map((s) => (
          <Button key={s} size="xs" variant="light" onClick={() => update(shortcutRange(s))}>
            {t(`adminImages.shortcuts.${s}`)}
          </Button>
        ))}
        <Popover position="bottom-start" shadow="md" withinPortal>
          <Popover.Target>
            <Button variant="default" size="xs" leftSection={<IconColumns size={14} />} data-testid="images-columns">
              {t('admin.columns')}
            </Button>
          </Popover.Target>
          <Popover.Dropdown>
            <Stack gap={6}>
              {IMAGE_COLUMNS.map((c) => (
                <Checkbox
                  key={c}
                  label={t(`adminImages.columns.${c}`)}
                  checked={prefs.columns.includes(c)}
                  onChange={(e) => update({ columns: IMAGE_COLUMNS.filter((x) => (x === c ? e.currentTarget.checked : prefs.columns.includes(x))) })}
                />
              ))}
            </Stack>
          </Popover.Dropdown>
        </Popover>
        <Button size="xs" variant="subtle" onClick={() => update({ ...DEFAULT_PREFS, columns: prefs.columns })}>
          {t('adminImages.filters.reset')}
        </Button>
      </Group>
    </Stack>
  );
}
