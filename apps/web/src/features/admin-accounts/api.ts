/** Calls of the accounts-area admin pages: vouchers and project settings templates (accounts.md §7). */
import { api } from '../../api/client';

export interface Voucher {
  id: string;
  key: string;
  createdAt: string;
  executions: number;
  validUntil: string | null;
  takenBy: { name: string } | null;
}

export interface SettingsTemplate {
  id: string;
  name: string;
  description: string | null;
  settings: Record<string, unknown>;
  createdBy: { name: string; surname: string } | null;
  createdAt: string;
}

/** The vouchers page loads everything in one page (page size 1,000,000), oldest first. */
export const VOUCHER_PAGE_SIZE = 1_000_000;

export const vouchersApi = {
  list: () =>
    api.get<{ vouchers: Voucher[]; total: number }>('/admin/vouchers/', {
      query: { page: 1, pageSize: VOUCHER_PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'asc' },
    }),
  create: (body: { count: number; executions: number; validUntil: string | null }) => api.post<{ vouchers: Voucher[] }>('/admin/vouchers/', body),
  remove: (id: string) => api.delete<void>(`/admin/vouchers/${id}`),
};

export const templatesApi = {
  list: () => api.get<SettingsTemplate[]>('/admin/project-settings-templates'),
  create: (body: { name: string; description: string | null; settings: unknown }) =>
    api.post<SettingsTemplate>('/admin/project-settings-templates', body),
  update: (id: string, body: { name: string; description: string | null; settings: unknown }) =>
    api.put<SettingsTemplate>(`/admin/project-settings-templates/${id}`, body),
  remove: (id: string) => api.delete<void>(`/admin/project-settings-templates/${id}`),
};

/** DD/MM/YYYY HH:mm:ss (back-office §9 date display). */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** The default expiry of a new voucher: 30 days ahead, as YYYY-MM-DD. */
export function defaultExpiry(now = new Date()): string {
  const d = new Date(now.getTime() + 30 * 86_400_000);
  return d.toISOString().slice(0, 10);
}
