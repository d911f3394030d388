/** Servers (nodes) and launchers (executors) calls (back-office.md §7). */
import { api } from '../../../api/client';

export interface Executor {
  id: string;
  nodeId?: string;
  port: number;
  gpuAffinity: number;
  version: string;
  isEnabled: boolean;
  isUpdating: boolean;
  envVariables: Record<string, string> | null;
  lastSeenAt?: string | null;
  reportedModels?: unknown[];
  createdAt?: string;
}

export interface ComputeNode {
  id: string;
  name: string;
  ip: string;
  description: string;
  nodeType: 'ON_PREMISE' | 'CLOUD';
  status: string | null;
  provider: string | null;
  instanceId: string | null;
  transition?: string | null;
  executors: Executor[];
}

export interface NodeBody {
  name: string;
  ip: string;
  description: string;
  nodeType: 'ON_PREMISE' | 'CLOUD';
  provider?: string;
  instanceId?: string;
}

export interface ExecutorBody {
  version: string;
  port: number;
  gpuAffinity: number;
  envVariables: Record<string, string>;
  nodeId: string;
}

export const NODES_KEY = ['admin', 'nodes'] as const;

/** Versions may come as strings or as {version} objects. */
function versionList(raw: unknown): string[] {
  const arr = Array.isArray(raw)
    ? raw
    : raw && typeof raw === 'object' && Array.isArray((raw as { versions?: unknown }).versions)
      ? (raw as { versions: unknown[] }).versions
      : [];
  return arr
    .map((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && 'version' in v ? String((v as { version: unknown }).version) : ''))
    .filter(Boolean);
}

export const nodesApi = {
  list: () => api.get<ComputeNode[]>('/admin/nodes'),
  create: (body: NodeBody) => api.post<ComputeNode>('/admin/nodes', body),
  remove: (id: string) => api.delete<void>(`/admin/nodes/${id}`),
  start: (id: string) => api.put<void>(`/admin/nodes/${id}/start`),
  stop: (id: string) => api.put<void>(`/admin/nodes/${id}/stop`),
  createExecutor: (body: ExecutorBody) => api.post<Executor>('/admin/executors', body),
  removeExecutor: (id: string) => api.delete<void>(`/admin/executors/${id}`),
  testExecutor: (id: string) => api.post<{ isConnected: boolean }>(`/admin/executors/${id}/test`),
  versions: async () => versionList(await api.get<unknown>('/admin/executors/versions')),
  updateAll: (version: string) => api.put<void>('/admin/executors', { version }),
};
