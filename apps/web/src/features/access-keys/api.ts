import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AccessKey, CreatedAccessKey } from '../../api/types';

const KEY = ['access-keys'] as const;

export function useAccessKeys() {
  return useQuery({ queryKey: KEY, queryFn: () => api.get<AccessKey[]>('/access-keys') });
}

export function useCreateAccessKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<CreatedAccessKey>('/access-keys', { name }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useSetAccessKeyEnabled() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => api.patch<AccessKey>(`/access-keys/${encodeURIComponent(id)}`, { enabled }),
    onSuccess: (key) => qc.setQueryData<AccessKey[]>(KEY, (old) => old?.map((k) => (k.id === key.id ? key : k))),
  });
}

export function useDeleteAccessKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/access-keys/${encodeURIComponent(id)}`),
    onSuccess: (_, id) => qc.setQueryData<AccessKey[]>(KEY, (old) => old?.filter((k) => k.id !== id)),
  });
}
