import { Loader, MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useImageOwners } from '../images/api';

/** A searchable choice of several image owners (the people whose images may train the model). */
export function UsersMultiSelect({ value, onChange }: { value: string[]; onChange: (ids: string[]) => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 250);
  const owners = useImageOwners(term);
  // labels of chosen users stay known when a later search no longer lists them
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const found = Object.fromEntries((owners.data ?? []).map((o) => [o.id, `${`${o.name} ${o.surname}`.trim()} <${o.email}>`]));
  const labels: Record<string, string> = { ...chosen, ...found };
  const data = [...new Set([...value, ...Object.keys(found)])].map((id) => ({ value: id, label: labels[id] ?? id }));
  const change = (ids: string[]) => {
    setChosen(Object.fromEntries(ids.map((id) => [id, labels[id] ?? id])));
    onChange(ids);
  };
  return (
    <MultiSelect
      label={t('adminTraining.form.users')}
      placeholder={value.length ? undefined : t('adminTraining.form.usersPlaceholder')}
      data={data}
      value={value}
      onChange={change}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      rightSection={owners.isFetching ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      data-testid="train-users"
    />
  );
}
