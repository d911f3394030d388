import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AvailableModel, ModelNavItem } from '../../api/types';

export const FAVORITES_KEY = ['favorites'] as const;
export const AVAILABLE_MODELS_KEY = ['available-models'] as const;

export function useFavorites() {
  return useQuery({ queryKey: FAVORITES_KEY, queryFn: () => api.get<ModelNavItem[]>('/users/favorites') });
}

export function useAvailableModels(enabled = true) {
  return useQuery({
    queryKey: AVAILABLE_MODELS_KEY,
    queryFn: () => api.get<AvailableModel[]>('/settings/available-models'),
    enabled,
  });
}

/** PUT /users/favorites {id, favorite} → the new favourites list. */
export function useToggleFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { id: string; favorite: boolean }) => api.put<ModelNavItem[]>('/users/favorites', body),
    onSuccess: (list, vars) => {
      qc.setQueryData(FAVORITES_KEY, list);
      qc.setQueryData<AvailableModel[]>(AVAILABLE_MODELS_KEY, (old) => old?.map((m) => (m.id === vars.id ? { ...m, favorite: vars.favorite } : m)));
    },
  });
}
