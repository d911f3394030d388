/** Insights calls of the back-office (back-office.md §2 Insights screen, §9), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { insightsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const ADMIN_INSIGHTS_KEY = ['admin', 'insights'] as const;

export function useAdminInsights() {
  return useQuery({ queryKey: ADMIN_INSIGHTS_KEY, queryFn: () => call(insightsApi.adminList) });
}

export { insightsApi };
