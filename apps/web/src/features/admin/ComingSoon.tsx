import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A back-office page that is not built yet. */
export function ComingSoon({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="lg">
      <Title order={2}>{t(`admin.menu.${page}`)}</Title>
      <Text c="dimmed" mt="xs">
        {t('admin.comingSoon')}
      </Text>
    </Paper>
  );
}
