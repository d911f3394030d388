import { ActionIcon, Badge, Code, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import type { TranslationEntry } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';

const LANGUAGES = ['en', 'de'] as const;

/** One key of the Translations card: the text shown in each language (the override, else the file's) and Edit. */
export function TranslationEntryItem({ entry, onEdit }: { entry: TranslationEntry; onEdit: () => void }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xs" radius="sm" data-testid={`translation-${entry.key}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{entry.key}</Code>
          <ActionIcon
            variant="subtle"
            onClick={onEdit}
            aria-label={t('adminTranslations.editLabel', { key: entry.key })}
            title={t('adminTranslations.edit')}
          >
            <IconPencil size={16} />
          </ActionIcon>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing={4}>
          {LANGUAGES.map((language) => {
            const side = entry[language];
            return (
              <div key={language} style={{ minWidth: 0 }}>
                <Group gap={6}>
                  <Text size="xs" c="dimmed">
                    {t(`adminTranslations.languages.${language}`)}
                  </Text>
                  {side.override !== null ? (
                    <Badge size="xs" variant="light" color="grape">
                      {t('adminTranslations.overridden')}
                    </Badge>
                  ) : null}
                </Group>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
                  {side.override ?? side.file}
                </Text>
              </div>
            );
          })}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
