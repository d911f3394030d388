/** The customization groups, searchable, with the selected one highlighted (back-office.md §2). */
import { Button, NavLink, Paper, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { modelIdOf } from './api';
import type { CustomizationGroup } from '@lamella/contracts';

export function GroupList({
  groups,
  selected,
  onSelect,
  onNew,
}: {
  groups: CustomizationGroup[];
  selected: string | null;
  onSelect: (id: string) => void;
  onNew: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const name = (g: CustomizationGroup) => (i18n.language === 'de' ? g.nameDe || g.nameEn : g.nameEn || g.nameDe);
  const byModel = useMemo(() => {
    const q = search.trim().toLowerCase();
    const list = groups.filter(
      (g) => !q || [g.nameEn, g.nameDe, g.description ?? '', g.model?.displayName ?? ''].some((s) => s.toLowerCase().includes(q)),
    );
    const map = new Map<string, { label: string; items: CustomizationGroup[] }>();
    for (const g of list) {
      const key = modelIdOf(g);
      const entry = map.get(key) ?? { label: g.model?.displayName ?? key, items: [] };
      entry.items.push(g);
      map.set(key, entry);
    }
    return [...map.values()].sort((a, b) => a.label.localeCompare(b.label));
  }, [groups, search]);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Button leftSection={<IconPlus size={16} />} onClick={onNew} fullWidth>
          {t('admin.cust.newGroup')}
        </Button>
        <TextInput
          placeholder={t('admin.cust.search')}
          aria-label={t('admin.cust.search')}
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <ScrollArea.Autosize mah={520}>
          {byModel.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" p="sm">
              {t('admin.cust.noGroups')}
            </Text>
          ) : (
            byModel.map((m) => (
              <div key={m.label}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="xs" mb={2}>
                  {m.label}
                </Text>
                {m.items.map((g) => (
                  <NavLink
                    key={g.id}
                    label={name(g)}
                    active={g.id === selected}
                    onClick={() => onSelect(g.id)}
                    style={{ borderRadius: 4 }}
                    data-testid="cust-group"
                  />
                ))}
              </div>
            ))
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Paper>
  );
}
