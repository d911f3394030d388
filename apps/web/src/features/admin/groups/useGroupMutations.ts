/** The writes of the groups screen; each answers the server's message as a toast and refreshes the list. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupUpdateBody } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { errorText } from '../../../lib/errorText';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { ADMIN_GROUPS_KEY, GROUP_USER_OPTIONS_KEY, groupsApi } from './api';

export function useGroupMutations() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const refresh = async (message: string) => {
    notifySuccess(message);
    await Promise.all([qc.invalidateQueries({ queryKey: ADMIN_GROUPS_KEY }), qc.invalidateQueries({ queryKey: GROUP_USER_OPTIONS_KEY })]);
  };
  const onError = (e: unknown) => notifyError(errorText(t, e, 'adminGroups.saveFailed'));
  const create = useMutation({
    mutationFn: (name: string) => call(groupsApi.create, { body: { name } }),
    onSuccess: (r) => refresh(r.message),
    onError,
  });
  const update = useMutation({
    mutationFn: ({ id, body }: { id: string; body: GroupUpdateBody }) => call(groupsApi.update, { params: { id }, body }),
    onSuccess: (r) => refresh(r.message),
    onError,
  });
  const setUsers = useMutation({
    mutationFn: ({ id, usersIds }: { id: string; usersIds: string[] }) => call(groupsApi.setUsers, { params: { groupId: id }, body: { usersIds } }),
    onSuccess: (r) => refresh(r.message),
    onError,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call(groupsApi.remove, { params: { id } }),
    onSuccess: (r) => refresh(r.message),
    onError: (e: unknown) => notifyError(errorText(t, e, 'adminGroups.deleteFailed')),
  });
  return { create, update, setUsers, remove };
}

export type GroupMutations = ReturnType<typeof useGroupMutations>;
