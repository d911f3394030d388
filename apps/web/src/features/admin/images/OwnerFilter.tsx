/** The Owner column's filter: a searchable select of the users who uploaded images. */
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImageOwners } from './api';

export function OwnerFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 250);
  const owners = useImageOwners(term);
  const options = (owners.data ?? []).map((o) => ({ value: o.id, label: `${`${o.name} ${o.surname}`.trim()} <${o.email}>` }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      label={t('adminImages.filters.owner')}
      placeholder={t('adminImages.filters.ownerPlaceholder')}
      data={options}
      value={value}
      onChange={(v) => {
        onChange(v);
        setSearch('');
      }}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: o }) => o}
      rightSection={owners.isFetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={owners.isFetching ? undefined : t('adminImages.filters.noOwner')}
      comboboxProps={{ withinPortal: true }}
      data-testid="filter-owner"
      w={{ base: '100%', sm: 280 }}
    />
  );
}
