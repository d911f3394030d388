/** The back-office dashboard (back-office.md §2 "Dashboard"): where every admin lands. */
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { JobsSection } from './JobsSection';
import { UsersSection } from './UsersSection';

export function DashboardPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg" data-testid="admin-dashboard">
      <Title order={1} size="h2">
        {t('adminDashboard.title')}
      </Title>
      <Title order={2} size="h4">
        {t('adminDashboard.sections.users')}
      </Title>
      <UsersSection />
      <Title order={2} size="h4">
        {t('adminDashboard.sections.calculations')}
      </Title>
      <JobsSection />
    </Stack>
  );
}
