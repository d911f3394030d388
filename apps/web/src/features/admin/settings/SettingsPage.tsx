import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DemoLicenseCard } from './DemoLicenseCard';
import { MaintenanceCard } from './MaintenanceCard';
import { ServicesCard } from './ServicesCard';
import { TranslationsCard } from './TranslationsCard';

/** /admin/settings (back-office.md §2 "Settings screen"): a grid of cards. */
export function SettingsPage() {
  const { t } = useTranslation();
  return (
    <Stack data-testid="admin-settings">
      <Title order={2}>{t('adminSettings.title')}</Title>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <MaintenanceCard />
        <ServicesCard />
        <TranslationsCard />
        <DemoLicenseCard />
      </SimpleGrid>
    </Stack>
  );
}
