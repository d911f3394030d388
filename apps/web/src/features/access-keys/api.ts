import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accessKeysApi, type AccessKey, type CreateAccessKeyBody } from '@lamella/contracts';
import { call } from '../../api/client';

const KEY = ['access-keys'] as const;

export function useAccessKeys() {
  return useQuery({ queryKey: KEY, queryFn: () => call(accessKeysApi.list) });
}

export function useCreateAccessKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAccessKeyBody) => call(accessKeysApi.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}

export function useSetAccessKeyEnabled() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) => call(accessKeysApi.update, { params: { id }, body: { enabled } }),
    onSuccess: (key) => qc.setQueryData<AccessKey[]>(KEY, (old) => old?.map((k) => (k.id === key.id ? key : k))),
  });
}

export function useDeleteAccessKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(accessKeysApi.remove, { params: { id } }),
    onSuccess: (_, id) => qc.setQueryData<AccessKey[]>(KEY, (old) => old?.filter((k) => k.id !== id)),
  });
}
