import { Alert, SimpleGrid, Skeleton, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AccountForm } from './AccountForm';
import { useAccount } from './api';
import { ConsentCard } from './ConsentCard';
import { LogoCard } from './LogoCard';
import { ProfileForm } from './ProfileForm';
import { RemovalCard } from './RemovalCard';
import { StorageCard } from './StorageCard';
import { TwoFactorCard } from './TwoFactorCard';

/** /profile: account form, profile form, logo, training consent, two-factor and account removal cards. */
export function ProfilePage() {
  const { t } = useTranslation();
  const account = useAccount();
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {t('profile.title')}
      </Title>
      {account.isPending && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <Skeleton h={320} />
          <Skeleton h={320} />
        </SimpleGrid>
      )}
      {account.isError && <Alert color="red">{t('profile.loadFailed')}</Alert>}
      {account.data && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" style={{ alignItems: 'start' }}>
          <Stack gap="lg">
            <ProfileForm account={account.data} />
          </Stack>
          <Stack gap="lg">
            <AccountForm account={account.data} />
            <TwoFactorCard />
            <LogoCard hasLogo={account.data.hasLogo} />
            <ConsentCard account={account.data} />
            <StorageCard />
            <RemovalCard />
          </Stack>
        </SimpleGrid>
      )}
    </Stack>
  );
}
