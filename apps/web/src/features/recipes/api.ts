import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { imagesApi, jobsApi, recipesApi, type CreateJobsBody, type SaveRecipeBody, type TrainRecipeBody } from '@lamella/contracts';
import { call } from '../../api/client';

export const RECIPES_KEY = ['recipes'] as const;

export function useRecipes() {
  return useQuery({ queryKey: RECIPES_KEY, queryFn: () => call(recipesApi.list) });
}

export function useRecipe(id: string | undefined) {
  return useQuery({ queryKey: [...RECIPES_KEY, id], queryFn: () => call(recipesApi.get, { params: { id: id! } }), enabled: !!id });
}

export function useOwnImages() {
  return useQuery({ queryKey: ['images', 'own'], queryFn: () => call(imagesApi.list) });
}

/** Trains on the strokes (or grey ranges) and answers the segmentation: the live preview. */
export function useTrainRecipe() {
  return useMutation({ mutationFn: (body: TrainRecipeBody) => call(recipesApi.train, { body }) });
}

export function useSaveRecipe() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: SaveRecipeBody }) =>
      id ? call(recipesApi.update, { params: { id }, body }) : call(recipesApi.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: RECIPES_KEY }),
  });
}

export function useRunWithRecipe() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateJobsBody) => call(jobsApi.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['jobs'] }),
  });
}

/** A job, polled every 2 s until it has settled. */
export function useJobPoll(id: string) {
  return useQuery({
    queryKey: ['jobs', 'one', id],
    queryFn: () => call(jobsApi.get, { params: { id } }),
    refetchInterval: (q) => (q.state.data && ['FINISHED', 'FAILED', 'CACHED'].includes(q.state.data.status) ? false : 2000),
  });
}
