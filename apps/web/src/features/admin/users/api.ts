import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_USERS_PAGE_SIZE,
  adminUsersApi as api,
  type AdminUserListItem,
  type AdminUsersQuery,
  type AssignLicenseBody,
} from '@lamella/contracts';
import { call, callRaw, urlOf } from '../../../api/client';

/** Back-office users (back-office.md §7 "Users, access and vouchers"). */

const LIST = ['admin', 'users'] as const;
const userKey = (id: string) => ['admin', 'user', id] as const;

/** One page of the users list and how many users match in all (`x-total-count`); the page stays shown while the next loads. */
export function useAdminUsers(query: AdminUsersQuery) {
  return useQuery({
    queryKey: [...LIST, query],
    queryFn: async ({ signal }) => {
      const res = await callRaw(api.list, { query: { pageSize: ADMIN_USERS_PAGE_SIZE, ...query }, signal });
      const items = (await res.json()) as AdminUserListItem[];
      return { items, total: Number(res.headers.get('x-total-count') ?? items.length) };
    },
    placeholderData: keepPreviousData,
  });
}

/** The download link with the chosen columns (`columns[]`); `xlsx` for the Excel file (CSV by default). */
export const usersCsvUrl = (columns: string[], format: 'csv' | 'xlsx' = 'csv') =>
  urlOf(api.csv, { query: { 'columns[]': columns, ...(format === 'xlsx' ? { format } : {}) } });

export const useUserProfile = (id: string) => useQuery({ queryKey: [...userKey(id), 'profile'], queryFn: () => call(api.get, { params: { id } }) });
export const useUserStats = (id: string) => useQuery({ queryKey: [...userKey(id), 'stats'], queryFn: () => call(api.stats, { params: { id } }) });
export const useUserLicenses = (id: string) =>
  useQuery({ queryKey: [...userKey(id), 'licenses'], queryFn: () => call(api.licenses, { params: { id } }) });

/** A write on one user; the list and that user's queries are refreshed after it. */
function useUserWrite<V extends { id: string }, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_r, v) => Promise.all([qc.invalidateQueries({ queryKey: LIST }), qc.invalidateQueries({ queryKey: userKey(v.id) })]),
  });
}

export const useSetRole = () =>
  useUserWrite((v: { id: string; role: string }) => call(api.setRole, { params: { id: v.id }, body: { role: v.role } }));
export const useActivate = () => useUserWrite((v: { id: string }) => call(api.activate, { params: { id: v.id } }));
export const useSetPreferences = () =>
  useUserWrite((v: { id: string; removeDataPermanently: boolean }) =>
    call(api.setPreferences, { params: { id: v.id }, body: { removeDataPermanently: v.removeDataPermanently } }),
  );
export const useAssignLicense = () =>
  useUserWrite((v: { id: string; body: Omit<AssignLicenseBody, 'userId'> }) => call(api.assignLicense, { body: { ...v.body, userId: v.id } }));
export const useDeleteUser = () => useUserWrite((v: { id: string }) => call(api.remove, { params: { id: v.id } }));
/** Cancels a scheduled deletion (ADMIN): the account gets its role back. */
export const useRestoreUser = () => useUserWrite((v: { id: string }) => call(api.restore, { params: { id: v.id } }));
export const impersonate = (id: string) => call(api.impersonate, { params: { id } });
