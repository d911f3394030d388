/** The user's insights (back-office.md §9: GET /insights?without-details=true, GET /insights/{id}, hiding one). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { insightsApi } from '@lamella/contracts';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

const KEY = ['insights'] as const;

/** Titles of the insights the user has not hidden, in the UI language (refetched when it changes). */
export function useInsights() {
  const { i18n } = useTranslation();
  return useQuery({ queryKey: [...KEY, 'list', i18n.language], queryFn: () => call(insightsApi.list, { query: { 'without-details': true } }) });
}

export function useInsight(id: string | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...KEY, 'one', id, i18n.language],
    queryFn: () => call(insightsApi.get, { params: { id: id as string } }),
    enabled: id !== null,
  });
}

export function useHideInsight() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(insightsApi.hide, { params: { id } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: KEY }),
  });
}
