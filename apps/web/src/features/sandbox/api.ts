import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { customizationsApi, sandboxApi, type ModelCustomization, type RunSandboxBody } from '@lamella/contracts';
import { call, isApiError } from '../../api/client';
import { JOB_FETCH_INTERVAL, SANDBOX_KEY } from '../jobs/api';

/** The user's sandbox jobs of the last 24 h, polled at the job fetch interval (§4, §9). */
export function useSandboxJobs() {
  return useQuery({ queryKey: SANDBOX_KEY, queryFn: () => call(sandboxApi.list), refetchInterval: JOB_FETCH_INTERVAL });
}

export function useRunSandbox() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<RunSandboxBody, 'source'>) => call(sandboxApi.run, { body: { ...body, source: 'SANDBOX' } }),
    onSettled: () => void qc.invalidateQueries({ queryKey: SANDBOX_KEY }),
  });
}

/** Customizations of the chosen models (GET /models/{id}/customizations); a 404 or 403 means none. */
export function useCustomizations(modelIds: string[], enabled: boolean) {
  return useQueries({
    queries: modelIds.map((modelId) => ({
      queryKey: ['customizations', modelId],
      enabled,
      queryFn: async (): Promise<ModelCustomization[]> => {
        try {
          return (await call(customizationsApi.forModel, { params: { modelId } })) ?? [];
        } catch (e) {
          if (isApiError(e) && (e.statusCode === 404 || e.statusCode === 403)) return [];
          throw e;
        }
      },
    })),
  });
}

export function customizationName(c: ModelCustomization, lng: string): string {
  return (lng === 'de' ? c.nameDe || c.nameEn : c.nameEn || c.nameDe) || c.id;
}

/** Values of an identification variable: split on comma and space. */
export const splitVals = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export const SANDBOX_FILENAME_MAX = 70;

export type StepId = 'image' | 'models' | 'params' | 'versions' | 'results';

/** An identification variable as typed: values still one text. */
export interface Variable {
  key: string;
  vals: string;
}
