/** Model news calls of the back-office (back-office.md §2 News screen, §9), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { computeModelsApi, newsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const ADMIN_NEWS_KEY = ['admin', 'news'] as const;
const MODEL_NAMES_KEY = ['admin', 'compute-models', 'short'] as const;

export function useAdminNews() {
  return useQuery({ queryKey: ADMIN_NEWS_KEY, queryFn: () => call(newsApi.list) });
}

/** Models for the optional selector and the table's Model column. */
export function useModelNames() {
  return useQuery({ queryKey: MODEL_NAMES_KEY, queryFn: () => call(computeModelsApi.short), staleTime: 60_000 });
}

export { newsApi };
