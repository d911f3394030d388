import { Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { AclEntry, Permission } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { errorText } from '../../../lib/errorText';
import { useSetAcl } from './api';
import { PrivilegeSwitches } from './PrivilegeSwitches';
import { namesOf, toPrivileges, toggled } from './privileges';
import { usePermissionLabels } from './usePermissionLabels';

/** One power user: name and e-mail, and their privileges; a grant applies at once, a revocation after a confirmation. */
export function AclRow({ entry }: { entry: AclEntry }) {
  const { t } = useTranslation();
  const labels = usePermissionLabels();
  const save = useSetAcl();
  const held = namesOf(entry.privileges);
  const name = entry.name || entry.email;

  const apply = (next: Permission[], on: boolean) =>
    save.mutate(
      { userId: entry.userId, privileges: toPrivileges(next) },
      {
        onSuccess: () => notifySuccess(on ? t('accessControl.granted') : t('accessControl.revoked')),
        onError: (e) => notifyError(errorText(t, e, 'accessControl.saveFailed')),
      },
    );

  const onToggle = (permission: Permission, on: boolean) => {
    const { next, changed } = toggled(held, permission, on);
    if (!changed.length) return;
    if (on) return apply(next, true);
    modals.openConfirmModal({
      title: t('accessControl.confirmTitle'),
      children: <Text size="sm">{t('accessControl.confirmRevoke', { privileges: changed.map((p) => labels[p].label).join(', '), name })}</Text>,
      labels: { confirm: t('accessControl.revoke'), cancel: t('accessControl.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => apply(next, false),
    });
  };

  return (
    <Table.Tr data-testid="acl-row" data-user-id={entry.userId}>
      <Table.Td>
        <Text fw={500}>{name}</Text>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {entry.email}
        </Text>
      </Table.Td>
      <Table.Td>
        <PrivilegeSwitches name={name} held={held} disabled={save.isPending} onToggle={onToggle} />
      </Table.Td>
    </Table.Tr>
  );
}
