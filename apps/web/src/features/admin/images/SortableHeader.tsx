/** A sortable column header of the images table (a new key sorts descending, the same key flips the order). */
import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';

export function SortableHeader({ label, active, order, onSort }: { label: string; active: boolean; order: 'asc' | 'desc'; onSort: () => void }) {
  const Icon = !active ? IconSelector : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={onSort}>
      <Group gap={4} wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Icon size={14} />
      </Group>
    </UnstyledButton>
  );
}
