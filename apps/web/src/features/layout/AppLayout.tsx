import { Anchor, AppShell, Burger, Group } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { Logo } from '../../components/Logo';
import { useMe } from '../auth/session';
import { ImpersonationBanner } from '../impersonation/ImpersonationBanner';
import { MaintenanceBanner } from '../maintenance/MaintenanceBanner';
import { CookieNotice } from './CookieNotice';
import { Footer } from './Footer';
import { MobileNav } from './MobileNav';
import { NavTabs } from './NavTabs';
import { NotificationBell } from './NotificationBell';
import { UserMenu } from './UserMenu';
import { TermsAcceptanceModal } from '../terms/TermsAcceptanceModal';

/** The signed-in shell (user-app.md §2): header with logo, tabs / hamburger, bell and user menu; footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const [drawer, { toggle, close }] = useDisclosure(false);
  if (!me) return null;
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" gap="sm" wrap="nowrap">
          <Burger opened={drawer} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('layout.menu.navigation')} />
          <Anchor component={Link} to="/dashboard" underline="never" style={{ flexShrink: 0 }}>
            <Logo height={26} />
          </Anchor>
          <Group visibleFrom="sm" style={{ flex: 1, minWidth: 0 }} ml="md" h="100%" align="flex-end">
            <NavTabs />
          </Group>
          <Group gap="xs" ml="auto" wrap="nowrap">
            <NotificationBell />
            <UserMenu me={me} />
          </Group>
        </Group>
      </AppShell.Header>
      <MobileNav opened={drawer} onClose={close} />
      <AppShell.Main style={{ display: 'flex', flexDirection: 'column' }}>
        <div style={{ flex: 1 }}>
          <ImpersonationBanner />
          <MaintenanceBanner />
          <Outlet />
        </div>
        <div
          style={{
            marginTop: 'var(--mantine-spacing-xl)',
            marginInline: 'calc(var(--mantine-spacing-md) * -1)',
            marginBottom: 'calc(var(--mantine-spacing-md) * -1)',
            borderTop: '1px solid var(--mantine-color-gray-3)',
          }}
        >
          <Footer />
        </div>
      </AppShell.Main>
      <CookieNotice />
      <TermsAcceptanceModal />
    </AppShell>
  );
}
