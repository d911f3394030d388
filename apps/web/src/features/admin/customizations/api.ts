/** Customization groups calls (back-office.md §7 "Customization groups"). */
import { api } from '../../../api/client';
import type { ValidationError } from './logic';

export interface CustomizationParent {
  parentId: string;
  priority: number;
  parent?: { id: string; nameEn?: string; nameDe?: string } | null;
}

export interface CustomizationGroup {
  id: string;
  nameEn: string;
  nameDe: string;
  description?: string | null;
  model?: { id: string; displayName?: string | null } | null;
  modelId?: string | null;
  members?: { id: string; name?: string | null; surname?: string | null; email?: string | null }[];
  parents?: CustomizationParent[];
}

export interface GroupBody {
  nameEn: string;
  nameDe: string;
  modelId: string;
  description?: string;
}

const base = '/admin/customizations';

/** Settings may be answered bare or wrapped as {settings}. */
export function unwrapSettings(raw: unknown): unknown {
  if (
    raw &&
    typeof raw === 'object' &&
    !Array.isArray(raw) &&
    'settings' in raw &&
    Object.keys(raw).every((k) => ['settings', 'groupId', 'modelId', 'updatedAt', 'schema', 'version'].includes(k))
  ) {
    return (raw as { settings: unknown }).settings ?? {};
  }
  return raw ?? {};
}

/** Defaults may be bare, or {defaults|settings, schema}. */
export function unwrapDefaults(raw: unknown): { defaults: unknown; schema: unknown } {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if ('defaults' in o || 'schema' in o) return { defaults: o.defaults ?? o.settings ?? {}, schema: o.schema ?? null };
  }
  return { defaults: raw ?? {}, schema: null };
}

export const custApi = {
  groups: () => api.get<CustomizationGroup[]>(`${base}/groups`),
  create: (body: GroupBody) => api.post<CustomizationGroup>(`${base}/groups`, body),
  update: (id: string, body: GroupBody) => api.put<CustomizationGroup>(`${base}/groups/${id}`, body),
  remove: (id: string) => api.delete<void>(`${base}/groups/${id}`),
  clone: (id: string) => api.post<CustomizationGroup>(`${base}/groups/${id}/clone`),
  addMember: (id: string, userId: string) => api.put<void>(`${base}/groups/${id}/members`, { userId }),
  removeMember: (id: string, userId: string) => api.delete<void>(`${base}/groups/${id}/members/${userId}`),
  setParents: (id: string, body: { parents: { parentId: string; priority: number }[] }) => api.post<void>(`${base}/groups/${id}/parents`, body),
  removeParent: (id: string, parentId: string) => api.delete<void>(`${base}/groups/${id}/parents/${parentId}`),
  settings: async (id: string) => unwrapSettings(await api.get<unknown>(`${base}/groups/${id}/settings`)),
  saveSettings: (id: string, settings: unknown) => api.put<void>(`${base}/groups/${id}/settings`, { settings }),
  resolved: async (id: string) => unwrapSettings(await api.get<unknown>(`${base}/groups/${id}/resolved-settings`)),
  defaults: async (modelId: string) => unwrapDefaults(await api.get<unknown>(`${base}/models/${modelId}/defaults`)),
  validate: (body: { modelId?: string; groupId?: string; settings: unknown }) => api.post<ValidationError[] | null>(`${base}/validate`, body),
};

export const GROUPS_KEY = ['admin', 'customization-groups'] as const;
export const modelIdOf = (g: CustomizationGroup) => g.model?.id ?? g.modelId ?? '';
