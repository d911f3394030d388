/** A sortable column header of the admin jobs table: a new key sorts descending, the same key flips the order. */
import { Group, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSelector } from '@tabler/icons-react';
import type { JobFilters } from './filters';

export function SortHeader({ label, col, filters, onSort }: { label: string; col: string; filters: JobFilters; onSort: (k: string) => void }) {
  const active = filters.sortKey === col;
  const Icon = !active ? IconSelector : filters.sortOrder === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={() => onSort(col)} aria-sort={active ? (filters.sortOrder === 'asc' ? 'ascending' : 'descending') : undefined}>
      <Group gap={4} wrap="nowrap">
        <Text fw={600} size="sm">
          {label}
        </Text>
        <Icon size={14} />
      </Group>
    </UnstyledButton>
  );
}
