import { Group, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useProjects } from '../projects/api';

export interface LibraryFilterValues {
  search: string;
  from: string;
  to: string;
  projectId: string | null;
}

/** Search by name (debounced by the page), uploaded from/to (days), and project. */
export function LibraryFilters({ value, onChange }: { value: LibraryFilterValues; onChange: (next: LibraryFilterValues) => void }) {
  const { t } = useTranslation();
  const projects = useProjects();
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label={t('library.filters.search')}
        placeholder={t('library.filters.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={value.search}
        onChange={(e) => onChange({ ...value, search: e.currentTarget.value })}
        w={{ base: '100%', sm: 240 }}
      />
      <TextInput
        type="date"
        label={t('library.filters.from')}
        value={value.from}
        onChange={(e) => onChange({ ...value, from: e.currentTarget.value })}
        w={{ base: '47%', sm: 160 }}
      />
      <TextInput
        type="date"
        label={t('library.filters.to')}
        value={value.to}
        onChange={(e) => onChange({ ...value, to: e.currentTarget.value })}
        w={{ base: '47%', sm: 160 }}
      />
      <Select
        label={t('library.filters.project')}
        placeholder={t('library.filters.allProjects')}
        clearable
        data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        value={value.projectId}
        onChange={(projectId) => onChange({ ...value, projectId })}
        w={{ base: '100%', sm: 220 }}
      />
    </Group>
  );
}
