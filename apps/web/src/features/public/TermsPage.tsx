import { Paper, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TermsContent } from './TermsContent';

export function TermsPage() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Title order={1} size="h2" mb="md">
        {t('pages.terms.title')}
      </Title>
      <TermsContent />
    </Paper>
  );
}
