import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { catalogApi, type AvailableModel, type SetFavoriteBody } from '@lamella/contracts';
import { call } from '../../api/client';

export const FAVORITES_KEY = ['favorites'] as const;
export const AVAILABLE_MODELS_KEY = ['available-models'] as const;

export function useFavorites() {
  return useQuery({ queryKey: FAVORITES_KEY, queryFn: () => call(catalogApi.favorites) });
}

export function useAvailableModels(enabled = true) {
  return useQuery({
    queryKey: AVAILABLE_MODELS_KEY,
    queryFn: () => call(catalogApi.availableModels),
    enabled,
  });
}

/** PUT /users/favorites {id, favorite} → the new favourites list. */
export function useToggleFavorite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SetFavoriteBody) => call(catalogApi.setFavorite, { body }),
    onSuccess: (list, vars) => {
      qc.setQueryData(FAVORITES_KEY, list);
      qc.setQueryData<AvailableModel[]>(AVAILABLE_MODELS_KEY, (old) => old?.map((m) => (m.id === vars.id ? { ...m, favorite: vars.favorite } : m)));
    },
  });
}
