import { useQuery } from '@tanstack/react-query';
import { usersApi } from '@lamella/contracts';
import { call } from '../../api/client';

export const ACCOUNT_KEY = ['account'] as const;

export function useAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: () => call(usersApi.account) });
}
