import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import {
  IconChevronDown,
  IconFlask,
  IconFolder,
  IconPhoto,
  IconBrush,
  IconKey,
  IconLogout,
  IconSettings,
  IconShield,
  IconTestPipe,
  IconUsersGroup,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Me } from '@lamella/contracts';
import { canOpenAdmin, firstPermittedAdminPage } from '../auth/session';

function initials(me: Me): string {
  return `${me.name?.[0] ?? ''}${me.surname?.[0] ?? ''}`.toUpperCase() || me.email[0].toUpperCase();
}

/**
 * User menu. Admin section: Admin panel for ADMIN or a POWER_USER with a permitted page; Admin sandbox only for ADMIN
 * (decision on contradictions #7: /sandbox/admin renders nothing for others, so the entry is not offered to them);
 * group entry for group admins. Account section: settings, access keys, sandbox, projects, logout.
 */
export function UserMenu({ me }: { me: Me }) {
  const { t } = useTranslation();
  const adminPage = firstPermittedAdminPage(me);
  const showAdmin = canOpenAdmin(me) || me.grpAdmin;
  return (
    <Menu position="bottom-end" shadow="md" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('layout.menu.userMenu')} data-testid="user-menu">
          <Group gap={6} wrap="nowrap">
            <Avatar color="indigo" radius="xl" size={32}>
              {initials(me)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="md" truncate maw={160}>
              {me.fullName || me.email}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" truncate>
            {me.email}
          </Text>
        </Menu.Label>
        {showAdmin && (
          <>
            <Menu.Divider />
            <Menu.Label>{t('layout.menu.adminSection')}</Menu.Label>
            {adminPage && (
              <Menu.Item component={Link} to={adminPage} leftSection={<IconShield size={16} />}>
                {t('layout.menu.adminPanel')}
              </Menu.Item>
            )}
            {me.role === 'ADMIN' && (
              <Menu.Item component={Link} to="/sandbox/admin" leftSection={<IconTestPipe size={16} />}>
                {t('layout.menu.adminSandbox')}
              </Menu.Item>
            )}
            {me.grpAdmin && (
              <Menu.Item component={Link} to="/group-admin" leftSection={<IconUsersGroup size={16} />}>
                {t('layout.menu.group')}
              </Menu.Item>
            )}
          </>
        )}
        <Menu.Divider />
        <Menu.Label>{t('layout.menu.accountSection')}</Menu.Label>
        <Menu.Item component={Link} to="/profile" leftSection={<IconSettings size={16} />}>
          {t('layout.menu.settings')}
        </Menu.Item>
        <Menu.Item component={Link} to="/access-keys" leftSection={<IconKey size={16} />}>
          {t('layout.menu.accessKeys')}
        </Menu.Item>
        <Menu.Item component={Link} to="/sandbox" leftSection={<IconFlask size={16} />}>
          {t('layout.menu.sandbox')}
        </Menu.Item>
        <Menu.Item component={Link} to="/projects" leftSection={<IconFolder size={16} />}>
          {t('layout.menu.projects')}
        </Menu.Item>
        <Menu.Item component={Link} to="/library" leftSection={<IconPhoto size={16} />}>
          {t('library.title')}
        </Menu.Item>
        <Menu.Item component={Link} to="/recipes" leftSection={<IconBrush size={16} />}>
          {t('recipes.title')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout" color="red" leftSection={<IconLogout size={16} />}>
          {t('layout.menu.logout')}
        </Menu.Item>
        <Menu.Item component={Link} to="/logout?everywhere=1" color="red" leftSection={<IconLogout size={16} />}>
          {t('layout.menu.logoutEverywhere')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
