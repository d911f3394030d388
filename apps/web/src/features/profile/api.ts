import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Account } from '../../api/types';

export const ACCOUNT_KEY = ['account'] as const;

export function useAccount() {
  return useQuery({ queryKey: ACCOUNT_KEY, queryFn: () => api.get<Account>('/users/me/account') });
}
