/** The back-office layout (back-office.md §2): side menu filtered by role and permission (§6), product version. */
import { Box, Burger, Drawer, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import {
  IconAdjustments,
  IconBox,
  IconBriefcase,
  IconFileText,
  IconGauge,
  IconLayoutDashboard,
  IconListDetails,
  IconNews,
  IconPhoto,
  IconServer,
  IconSettings,
  IconShieldLock,
  IconTemplate,
  IconTicket,
  IconUsers,
  IconUsersGroup,
  IconBulb,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { systemApi } from '@lamella/contracts';
import { call } from '../../api/client';
import { useMe } from '../auth/session';
import { activeEntry, canOpenAdminPath, visibleMenu, type AdminMenuEntry } from './menu';

const ICONS: Record<string, ComponentType<{ size?: number; stroke?: number }>> = {
  dashboard: IconLayoutDashboard,
  users: IconUsers,
  usersPrivileges: IconShieldLock,
  groups: IconUsersGroup,
  vouchers: IconTicket,
  resources: IconServer,
  models: IconBox,
  customizations: IconAdjustments,
  modelParams: IconGauge,
  projectSettingsTemplates: IconTemplate,
  news: IconNews,
  insights: IconBulb,
  terms: IconFileText,
  images: IconPhoto,
  jobs: IconBriefcase,
  settings: IconSettings,
};

/** 'dev' when the server does not report a real version. */
export function displayVersion(version: string | undefined | null): string {
  const v = (version ?? '').trim();
  return v && v !== '0.0.0' && v !== 'dev' ? v : 'dev';
}

function MenuList({ entries, current, onNavigate }: { entries: AdminMenuEntry[]; current?: string; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} component="nav" aria-label={t('admin.menu.label')}>
      {entries.map((e) => {
        const Icon = ICONS[e.key] ?? IconListDetails;
        return (
          <NavLink
            key={e.key}
            component={Link}
            to={e.path}
            label={t(`admin.menu.${e.key}`)}
            leftSection={<Icon size={18} stroke={1.6} />}
            active={current === e.path}
            onClick={onNavigate}
            style={{ borderRadius: 'var(--mantine-radius-sm)' }}
          />
        );
      })}
    </Stack>
  );
}

function VersionText() {
  const { t } = useTranslation();
  const { data } = useQuery({ queryKey: ['version'], queryFn: () => call(systemApi.version), staleTime: Infinity });
  return (
    <Text size="xs" c="dimmed" data-testid="admin-version">
      {t('admin.layout.version', { version: displayVersion(data?.version) })}
    </Text>
  );
}

export function AdminLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const entries = visibleMenu(me);
  if (!me) return null;
  if (!canOpenAdminPath(me, location.pathname)) {
    return <Navigate to={entries[0]?.path ?? '/dashboard'} replace />;
  }
  const current = activeEntry(location.pathname, entries)?.path;
  const currentLabel = current ? t(`admin.menu.${entries.find((e) => e.path === current)?.key}`) : t('admin.layout.title');
  return (
    <Box style={{ display: 'flex', gap: 'var(--mantine-spacing-md)', alignItems: 'flex-start', minWidth: 0 }}>
      <Box
        visibleFrom="md"
        component="aside"
        w={230}
        style={{ flexShrink: 0, position: 'sticky', top: 76, borderRight: '1px solid var(--mantine-color-gray-3)', paddingRight: 8 }}
      >
        <Text size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" mb={6}>
          {t('admin.layout.title')}
        </Text>
        <ScrollArea.Autosize mah="calc(100vh - 150px)">
          <MenuList entries={entries} current={current} />
        </ScrollArea.Autosize>
        <Box px="sm" mt="sm">
          <VersionText />
        </Box>
      </Box>
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Group hiddenFrom="md" gap="xs" mb="sm" wrap="nowrap">
          <Burger opened={opened} onClick={toggle} size="sm" aria-label={t('admin.layout.openMenu')} />
          <Text fw={600} truncate>
            {currentLabel}
          </Text>
        </Group>
        <Outlet />
      </Box>
      <Drawer opened={opened} onClose={close} title={t('admin.layout.title')} size={280} hiddenFrom="md">
        <MenuList entries={entries} current={current} onNavigate={close} />
        <Box mt="md">
          <VersionText />
        </Box>
      </Drawer>
    </Box>
  );
}
