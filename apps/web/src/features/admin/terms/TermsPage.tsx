import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TermsEditor } from './TermsEditor';

const LANGUAGES = ['en', 'de'] as const;

/** /admin/terms (issue 11 item 5): the terms per language, each save publishing a new version. */
export function TermsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="admin-terms">
      <Title order={1} size="h2">
        {t('adminTerms.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('adminTerms.hint')}
      </Text>
      <Tabs defaultValue="en" keepMounted={false}>
        <Tabs.List>
          {LANGUAGES.map((language) => (
            <Tabs.Tab key={language} value={language} data-testid={`terms-tab-${language}`}>
              {t(`adminTerms.tabs.${language}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {LANGUAGES.map((language) => (
          <Tabs.Panel key={language} value={language} pt="md">
            <TermsEditor language={language} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
