import { ActionIcon, Badge, Group, Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconDots } from '@tabler/icons-react';
import type { Role } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { hasPermission, isAdmin, useMe } from '../../auth/session';
import { useFormat } from '../../../lib/format';
import { impersonate, useActivate, useDeleteUser, useRestoreUser, useSetPreferences } from './api';
import { AssignLicenseModal } from './AssignLicenseModal';
import { AssignRoleModal } from './AssignRoleModal';

export interface ActionTarget {
  id: string;
  name: string;
  role: Role;
  removeDataPermanently: boolean;
  /** A scheduled deletion (the account is blocked until then): only "Restore user" is offered. */
  deletionDueAt?: string | null;
}

/**
 * The user action menu (back-office.md §2, §6): Assign role, Delete user, Impersonate and Allow permanent data
 * deletion for ADMIN only; Assign license and Activate account for everyone who may write users (ADMIN, or a
 * POWER_USER with USER.WRITE). Readers without USER.WRITE see no menu. A user waiting for deletion shows the day it
 * happens, and ADMIN may restore them (issue 26 item 7).
 */
export function UserActionsMenu({ user, onDeleted }: { user: ActionTarget; onDeleted?: () => void }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const [dialog, setDialog] = useState<'role' | 'license' | null>(null);
  const activate = useActivate();
  const remove = useDeleteUser();
  const restore = useRestoreUser();
  const prefs = useSetPreferences();
  const format = useFormat();
  if (!hasPermission(me, 'USER.WRITE')) return null;
  const admin = isAdmin(me);
  const fail = (e: unknown) => notifyError(errorText(t, e));

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('adminUsers.actions.deleteUser'),
      children: <Text size="sm">{t('adminUsers.confirmDelete', { name: user.name })}</Text>,
      labels: { confirm: t('common.yes'), cancel: t('common.no') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, string>,
      onConfirm: () =>
        remove.mutate(
          { id: user.id },
          {
            onSuccess: () => {
              notifySuccess(t('adminUsers.messages.deleted'));
              onDeleted?.();
            },
            onError: fail,
          },
        ),
    });

  const startImpersonation = () =>
    impersonate(user.id).then(() => {
      // a new session (as the user): reload the app on the user's dashboard so no admin data stays cached
      window.location.assign('/dashboard');
    }, fail);

  if (user.deletionDueAt)
    return (
      <Group gap={6} wrap="nowrap">
        <Badge color="red" variant="light" size="sm" data-testid={`user-deletion-${user.id}`}>
          {t('adminUsers.deletionDue', { date: format.date(user.deletionDueAt) })}
        </Badge>
        {admin ? (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={t('adminUsers.actions.label', { name: user.name })} data-testid={`user-actions-${user.id}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                data-testid="restore-user"
                onClick={() => restore.mutate({ id: user.id }, { onSuccess: () => notifySuccess(t('adminUsers.messages.restored')), onError: fail })}
              >
                {t('adminUsers.actions.restoreUser')}
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        ) : null}
      </Group>
    );

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={t('adminUsers.actions.label', { name: user.name })} data-testid={`user-actions-${user.id}`}>
            <IconDots size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {admin ? <Menu.Item onClick={() => setDialog('role')}>{t('adminUsers.actions.assignRole')}</Menu.Item> : null}
          <Menu.Item onClick={() => setDialog('license')}>{t('adminUsers.actions.assignLicense')}</Menu.Item>
          <Menu.Item
            onClick={() => activate.mutate({ id: user.id }, { onSuccess: () => notifySuccess(t('adminMessages.accountActivated')), onError: fail })}
          >
            {t('adminUsers.actions.activate')}
          </Menu.Item>
          {admin ? (
            <Menu.Item
              onClick={() =>
                prefs.mutate(
                  { id: user.id, removeDataPermanently: !user.removeDataPermanently },
                  { onSuccess: () => notifySuccess(t('adminUsers.messages.preferencesSaved')), onError: fail },
                )
              }
            >
              {user.removeDataPermanently ? t('adminUsers.actions.disallowPermanentDeletion') : t('adminUsers.actions.allowPermanentDeletion')}
            </Menu.Item>
          ) : null}
          {admin ? <Menu.Item onClick={startImpersonation}>{t('adminUsers.actions.impersonate')}</Menu.Item> : null}
          {admin ? (
            <Menu.Item color="red" onClick={confirmDelete}>
              {t('adminUsers.actions.deleteUser')}
            </Menu.Item>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      {dialog === 'role' ? <AssignRoleModal userId={user.id} current={user.role} onClose={() => setDialog(null)} /> : null}
      {dialog === 'license' ? <AssignLicenseModal userId={user.id} onClose={() => setDialog(null)} /> : null}
    </>
  );
}
