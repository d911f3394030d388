/** Calls of the group-admin area (user-app.md /group-admin), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { groupsApi } from '@lamella/contracts';
import { call, isApiError } from '../../api/client';

export const GROUP_ADMIN_KEY = ['group-admin'] as const;

export function useGroupAdmin(enabled: boolean) {
  return useQuery({
    queryKey: GROUP_ADMIN_KEY,
    queryFn: () => call(groupsApi.adminOverview),
    enabled,
    // A 404 means "you administer no group": no point in retrying.
    retry: (count, error) => !(isApiError(error) && error.statusCode === 404) && count < 2,
  });
}

export { groupsApi };
