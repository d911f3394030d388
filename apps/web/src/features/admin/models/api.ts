/** Models registry calls (back-office.md §7 "Models"). */
import { api, isApiError } from '../../../api/client';

export type AccessType = 'PUBLIC' | 'PRIVATE';

export interface ModelStats {
  lastWeekCount?: number | null;
  lastMonthCount?: number | null;
  totalCount?: number | null;
  averageJobTime?: number | null;
  averageWaitTime?: number | null;
}

export interface ComputeModel {
  id: string;
  internalName: string;
  routingPath: string;
  storagePath: string;
  displayName: string;
  version: string;
  accessType: AccessType;
  isDefaultVisible: boolean;
  stats?: ModelStats | null;
  trainable?: { count?: number | null } | null;
}

export type ModelBody = Pick<
  ComputeModel,
  'internalName' | 'routingPath' | 'storagePath' | 'displayName' | 'version' | 'accessType' | 'isDefaultVisible'
>;

export interface AccessGrant {
  id: string;
  userId: string;
  user?: { name?: string | null; surname?: string | null; email?: string | null } | null;
}

export type ManualPosition = 'TOP' | 'BOTTOM';
export type ManualLanguage = 'en' | 'de';

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isApiError(e) && e.statusCode === 404) return null;
    throw e;
  }
}

/** Stats may come inside each model or from /stats as a list ({modelId|id, …}) or a map by id. */
export function mergeStats(models: ComputeModel[], stats: unknown): ComputeModel[] {
  const byId = new Map<string, ModelStats & { trainable?: { count?: number }; trainableCount?: number }>();
  if (Array.isArray(stats)) {
    for (const s of stats as Record<string, unknown>[]) {
      const id = (s.modelId ?? s.id) as string | undefined;
      if (id) byId.set(id, ((s.stats as object) ?? s) as ModelStats);
    }
  } else if (stats && typeof stats === 'object') {
    for (const [id, s] of Object.entries(stats as Record<string, ModelStats>)) byId.set(id, s);
  }
  return models.map((m) => {
    const s = byId.get(m.id);
    if (!s) return m;
    return {
      ...m,
      stats: { ...s, ...(m.stats ?? {}) },
      trainable: m.trainable ?? s.trainable ?? (s.trainableCount !== undefined ? { count: s.trainableCount } : undefined),
    };
  });
}

export const modelsApi = {
  list: async () => {
    const models = await api.get<ComputeModel[]>('/admin/compute-models');
    const stats = await orNull(api.get<unknown>('/admin/compute-models/stats')).catch(() => null);
    return mergeStats(models, stats);
  },
  create: (body: ModelBody) => api.post<ComputeModel>('/admin/compute-models', body),
  update: (id: string, body: ModelBody) => api.put<ComputeModel>(`/admin/compute-models/${id}`, body),
  remove: (id: string) => api.delete<void>(`/admin/compute-models/${id}`),
  access: (id: string) => api.get<AccessGrant[]>(`/admin/compute-models/${id}/access`),
  grant: (id: string, userId: string) => api.post<AccessGrant>(`/admin/compute-models/${id}/access`, { userId }),
  revoke: (id: string, userId: string) => api.delete<void>(`/admin/compute-models/${id}/access/${userId}`),
  example: (id: string) => orNull(api.get<{ contentEn?: string | null; contentDe?: string | null }>(`/admin/compute-models/${id}/example`)),
  saveExample: (id: string, body: { contentEn: string; contentDe: string }) => api.put<void>(`/admin/compute-models/${id}/example`, body),
  manual: (id: string, position: ManualPosition, language: ManualLanguage) =>
    orNull(api.get<{ text?: string | null } | string | null>(`/admin/compute-models/${id}/manual/${position}/${language}`)),
  saveManual: (id: string, body: { text: string; position: ManualPosition; language: ManualLanguage }) =>
    api.put<void>(`/admin/compute-models/${id}/manual`, body),
};

export const MODELS_KEY = ['admin', 'compute-models'] as const;
