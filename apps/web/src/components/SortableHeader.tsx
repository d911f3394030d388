import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';

/** A sortable column header of a server-sorted table (users, images). */
export function SortableHeader({ label, active, order, onSort }: { label: string; active: boolean; order?: 'asc' | 'desc'; onSort: () => void }) {
  const Icon = !active ? IconSelector : order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={onSort} aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Group gap={4} wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Icon size={14} />
      </Group>
    </UnstyledButton>
  );
}
