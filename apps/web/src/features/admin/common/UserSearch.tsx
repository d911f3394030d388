/** Pick a user: searchable by name, e-mail, company or id (GET /admin/users2?filter=…); a pasted user id is accepted as is. */
import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminUsersApi } from '@lamella/contracts';
import { call } from '../../../api/client';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function UserSearch({
  label,
  placeholder,
  value,
  onChange,
  exclude = [],
  testId,
}: {
  label?: string;
  placeholder?: string;
  value: string | null;
  onChange: (id: string | null) => void;
  exclude?: string[];
  testId?: string;
}) {
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 300);
  const users = useQuery({
    queryKey: ['admin', 'user-search', term],
    queryFn: () => call(adminUsersApi.list, { query: { filter: term } }),
    enabled: term.length >= 2,
    staleTime: 30_000,
  });
  const found = (users.data ?? []).filter((u) => !exclude.includes(u.id)).slice(0, 50);
  const options = found.map((u) => ({
    value: u.id,
    label: [`${u.fullName || u.id}${u.email ? ` <${u.email}>` : ''}`, u.company].filter(Boolean).join(' · '),
  }));
  if (UUID.test(term) && !options.some((o) => o.value === term)) options.unshift({ value: term, label: term });
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      label={label}
      placeholder={placeholder}
      data={options}
      value={value}
      onChange={onChange}
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options: o }) => o}
      rightSection={users.isFetching ? <Loader size={14} /> : undefined}
      nothingFoundMessage={term.length >= 2 && !users.isFetching ? '—' : undefined}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
