import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../api/client';
import { JOB_FETCH_INTERVAL, SANDBOX_KEY } from '../jobs/api';
import type { Job } from '../jobs/types';

export interface SandboxRequest {
  imageId: string;
  modelsIds: string[];
  params?: { customizationId?: string | null; variables: { key: string; vals: string[] }[] };
  versions?: string[];
}

export interface Customization {
  id: string;
  nameEn?: string;
  nameDe?: string;
  name?: string | { en?: string; de?: string };
}

/** The user's sandbox jobs of the last 24 h, polled at the job fetch interval (§4, §9). */
export function useSandboxJobs() {
  return useQuery({ queryKey: SANDBOX_KEY, queryFn: () => api.get<Job[]>('/sandbox'), refetchInterval: JOB_FETCH_INTERVAL });
}

export function useRunSandbox() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SandboxRequest) => api.post<Job[]>('/sandbox', { ...body, source: 'SANDBOX' }),
    onSettled: () => void qc.invalidateQueries({ queryKey: SANDBOX_KEY }),
  });
}

/** Customizations of the chosen models (GET /models/{id}/customizations); a 404 means none. */
export function useCustomizations(modelIds: string[], enabled: boolean) {
  return useQueries({
    queries: modelIds.map((id) => ({
      queryKey: ['customizations', id],
      enabled,
      queryFn: async () => {
        try {
          return (await api.get<Customization[]>(`/models/${id}/customizations`)) ?? [];
        } catch (e) {
          if (isApiError(e) && (e.statusCode === 404 || e.statusCode === 403)) return [];
          throw e;
        }
      },
    })),
  });
}

export function customizationName(c: Customization, lng: string): string {
  if (typeof c.name === 'string') return c.name;
  const de = c.nameDe ?? (typeof c.name === 'object' ? c.name?.de : undefined);
  const en = c.nameEn ?? (typeof c.name === 'object' ? c.name?.en : undefined);
  return (lng === 'de' ? de || en : en || de) || c.id;
}

/** Values of an identification variable: split on comma and space. */
export const splitVals = (text: string) => text.split(/[\s,]+/).filter(Boolean);
