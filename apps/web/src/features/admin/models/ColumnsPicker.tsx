import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MODEL_COLUMNS, type ModelColumn } from './sort';

/** Which optional columns of the models table are shown (the name always is). */
export function ColumnsPicker({ columns, onChange }: { columns: ModelColumn[]; onChange: (columns: ModelColumn[]) => void }) {
  const { t } = useTranslation();
  return (
    <Popover position="bottom-end" shadow="md">
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          {t('admin.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={6}>
          {MODEL_COLUMNS.filter((c) => c !== 'name').map((c) => (
            <Checkbox
              key={c}
              label={t(`admin.models.col.${c}`)}
              checked={columns.includes(c)}
              onChange={(e) => onChange(e.currentTarget.checked ? [...columns, c] : columns.filter((x) => x !== c))}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
