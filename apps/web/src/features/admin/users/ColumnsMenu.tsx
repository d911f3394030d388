import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { IconColumns } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { USER_COLUMNS, type UserColumn } from './columns';

/** Chooses the shown columns (remembered in this browser). */
export function ColumnsMenu({ value, onChange }: { value: UserColumn[]; onChange: (cols: UserColumn[]) => void }) {
  const { t } = useTranslation();
  const toggle = (c: UserColumn, on: boolean) => {
    const next = USER_COLUMNS.filter((x) => (x === c ? on : value.includes(x)));
    if (next.length) onChange(next);
  };
  return (
    <Popover position="bottom-end" shadow="md" withinPortal>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />}>
          {t('adminUsers.columnsButton')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {USER_COLUMNS.map((c) => (
            <Checkbox key={c} label={t(`adminUsers.columns.${c}`)} checked={value.includes(c)} onChange={(e) => toggle(c, e.currentTarget.checked)} />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
