/** User-groups calls of the back-office (back-office.md §2 Groups screen, §7 Groups), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { groupsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const ADMIN_GROUPS_KEY = ['admin', 'groups'] as const;
export const GROUP_USER_OPTIONS_KEY = ['admin', 'groups', 'users'] as const;

export function useAdminGroups() {
  return useQuery({ queryKey: ADMIN_GROUPS_KEY, queryFn: () => call(groupsApi.list) });
}

export function useGroupUserOptions() {
  return useQuery({ queryKey: GROUP_USER_OPTIONS_KEY, queryFn: () => call(groupsApi.userOptions), staleTime: 30_000 });
}

export { groupsApi };
