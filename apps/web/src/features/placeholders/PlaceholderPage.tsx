import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMe } from '../auth/session';

type Page = 'projects' | 'groupAdmin' | 'notFound';

/** Pages that arrive in later issues (and the not-found page): a heading and a short note. */
export function PlaceholderPage({ page, groupAdminOnly }: { page: Page; groupAdminOnly?: boolean }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  if (groupAdminOnly && !me?.grpAdmin) return null;
  return (
    <Paper withBorder p="lg">
      <Title order={1} size="h2">
        {t(`placeholders.${page}.title`)}
      </Title>
      <Text c="dimmed" mt="xs">
        {t(`placeholders.${page}.text`)}
      </Text>
    </Paper>
  );
}
