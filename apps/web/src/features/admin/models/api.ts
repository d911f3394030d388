/** Models registry calls (back-office.md §7 "Models"), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { computeModelsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const MODELS_KEY = ['admin', 'compute-models'] as const;
export const modelAccessKey = (id: string) => ['admin', 'model-access', id] as const;
export const modelManualKey = (id: string, position: string, language: string) => ['admin', 'model-manual', id, position, language] as const;
export const modelExampleKey = (id: string) => ['admin', 'model-example', id] as const;

/** Every model with its usage figures (stats and trainable images come with the list). */
export function useComputeModels() {
  return useQuery({ queryKey: MODELS_KEY, queryFn: () => call(computeModelsApi.list) });
}

export { computeModelsApi };
