import { Modal, Select, Stack } from '@mantine/core';
import { Roles, type Role } from '@lamella/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../../components/FormActions';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSetRole } from './api';

/** Assign role (ADMIN only): PATCH /users/{userId} with the role. */
export function AssignRoleModal({ userId, current, onClose }: { userId: string; current: Role; onClose: () => void }) {
  const { t } = useTranslation();
  const [role, setRole] = useState<string | null>(current);
  const setRoleCall = useSetRole();
  const submit = () => {
    if (!role) return;
    setRoleCall.mutate(
      { id: userId, role },
      {
        onSuccess: () => {
          notifySuccess(t('adminUsers.messages.roleAssigned'));
          onClose();
        },
        onError: (e) => notifyError(errorText(t, e)),
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('adminUsers.actions.assignRole')}>
      <Stack>
        <Select
          label={t('adminUsers.columns.role')}
          data={Roles.map((r) => ({ value: r, label: t(`adminUsers.roles.${r}`) }))}
          value={role}
          onChange={setRole}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="assign-role-select"
        />
        <FormActions onCancel={onClose} onSubmit={submit} submitLabel={t('adminUsers.save')} loading={setRoleCall.isPending} />
      </Stack>
    </Modal>
  );
}
