import { Button, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import type { TranslationEntry } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { refetchTranslations } from '../../../i18n';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { CardState } from './CardState';
import { SettingsCard } from './SettingsCard';
import { TranslationEditDialog } from './TranslationEditDialog';
import { TranslationEntryItem } from './TranslationEntryItem';
import { translationsApi, useTranslationEntries } from './translationsQueries';

/**
 * Settings → Translations (issue 11 item 6): find a key by key or text, see its English and German file text and
 * override, edit or delete the override, and publish the overrides with 'Reload translations' (PUT /languages),
 * after which this browser loads the new texts at once.
 */
export function TranslationsCard() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 500);
  const list = useTranslationEntries(debounced);
  const [editing, setEditing] = useState<TranslationEntry | null>(null);
  const reload = useMutation({
    mutationFn: async () => {
      const answer = await call(translationsApi.reload);
      await refetchTranslations();
      return answer;
    },
    onSuccess: (answer) => notifySuccess(answer.message),
    onError: (e) => notifyError(errorText(t, e, 'adminTranslations.messages.reloadFailed')),
  });
  const data = list.data;
  return (
    <SettingsCard
      title={t('adminTranslations.title')}
      description={t('adminTranslations.description')}
      testId="settings-translations"
      aside={
        <Button
          variant="light"
          size="xs"
          leftSection={<IconRefresh size={14} />}
          loading={reload.isPending}
          onClick={() => reload.mutate()}
          data-testid="translations-reload"
          style={{ flexShrink: 0 }}
        >
          {t('adminTranslations.reload')}
        </Button>
      }
    >
      <TextInput
        label={t('adminTranslations.search')}
        placeholder={t('adminTranslations.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        data-testid="translations-search"
      />
      <CardState queries={[list]}>
        {data ? (
          <Stack gap="xs">
            <Text size="xs" c="dimmed">
              {debounced
                ? t('adminTranslations.shown', { shown: data.items.length, total: data.total })
                : t('adminTranslations.overridesCount', { count: data.overrides })}
            </Text>
            {data.items.length === 0 ? (
              <Text size="sm" c="dimmed" py="sm">
                {debounced ? t('adminTranslations.noResults') : t('adminTranslations.empty')}
              </Text>
            ) : (
              <ScrollArea.Autosize mah={420} type="auto" offsetScrollbars>
                <Stack gap="xs">
                  {data.items.map((entry) => (
                    <TranslationEntryItem key={entry.key} entry={entry} onEdit={() => setEditing(entry)} />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            )}
          </Stack>
        ) : null}
      </CardState>
      {editing ? <TranslationEditDialog key={editing.key} entry={editing} onClose={() => setEditing(null)} /> : null}
    </SettingsCard>
  );
}
