import { Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useMe } from '../auth/session';

type Page = 'history' | 'projects' | 'sandbox' | 'adminSandbox' | 'groupAdmin' | 'admin' | 'notFound';

/** Pages that arrive in later issues: a heading and a short note. */
export function PlaceholderPage({ page, adminOnly, groupAdminOnly }: { page: Page; adminOnly?: boolean; groupAdminOnly?: boolean }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  // Spec: the admin sandbox renders nothing for non-admins.
  if (adminOnly && me?.role !== 'ADMIN') return null;
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

export function ModelPlaceholderPage() {
  const { t } = useTranslation();
  const { name = '' } = useParams();
  return (
    <Paper withBorder p="lg">
      <Title order={1} size="h2">
        {t('placeholders.model.title', { name })}
      </Title>
      <Text c="dimmed" mt="xs">
        {t('placeholders.model.text')}
      </Text>
    </Paper>
  );
}
