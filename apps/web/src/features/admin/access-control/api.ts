import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { adminUsersApi, type AclEntry, type Privilege } from '@lamella/contracts';
import { call } from '../../../api/client';

const KEY = ['admin', 'acl'] as const;

/** The power users and their privileges (GET /admin/acl). */
export function useAcl() {
  return useQuery({ queryKey: KEY, queryFn: () => call(adminUsersApi.listAcl) });
}

/** Replaces one power user's privileges (PUT /admin/acl/{userId}); the list shows the server's answer. */
export function useSetAcl() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, privileges }: { userId: string; privileges: Privilege[] }) =>
      call(adminUsersApi.setAcl, { params: { id: userId }, body: { privileges } }),
    onSuccess: (entry) => qc.setQueryData<AclEntry[]>(KEY, (old) => old?.map((e) => (e.userId === entry.userId ? entry : e))),
  });
}
