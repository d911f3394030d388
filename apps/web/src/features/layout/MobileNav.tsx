import type { ReactNode } from 'react';
import { Divider, Drawer, NavLink, Stack } from '@mantine/core';
import { IconFlask, IconHistory, IconLayoutDashboard, IconLock, IconMicroscope } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useFavorites } from '../favourites/api';
import { useModelName } from '../../lib/modelName';

/** Small screens: the hamburger drawer lists the model tabs, history and sandbox. */
export function MobileNav({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const nameOf = useModelName();
  const { pathname } = useLocation();
  const favorites = useFavorites();
  const link = (to: string, label: string, icon: ReactNode, right?: ReactNode) => (
    <NavLink
      key={to}
      component={Link}
      to={to}
      label={label}
      leftSection={icon}
      rightSection={right}
      active={pathname === to || pathname.startsWith(to + '/')}
      onClick={onClose}
    />
  );
  return (
    <Drawer opened={opened} onClose={onClose} title={t('layout.menu.navigation')} size="xs" hiddenFrom="sm">
      <Stack gap={0}>
        {link('/dashboard', t('layout.tabs.dashboard'), <IconLayoutDashboard size={18} />)}
        {favorites.data?.map((f) =>
          link(
            f.path,
            nameOf({ name: f.path.split('/').pop(), displayName: f.displayName || f.label, displayNameDe: f.displayNameDe }),
            <IconMicroscope size={18} />,
            f.accessType === 'PRIVATE' ? <IconLock size={14} aria-label={t('layout.tabs.private')} /> : undefined,
          ),
        )}
        <Divider my="xs" />
        {link('/history', t('layout.pages.history'), <IconHistory size={18} />)}
        {link('/sandbox', t('layout.pages.sandbox'), <IconFlask size={18} />)}
      </Stack>
    </Drawer>
  );
}
