/** Settings calls of the back-office (back-office.md §2 "Settings screen", §7 "Settings"), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { adminUsersApi, computeModelsApi, settingsApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const ADMIN_SETTINGS_KEY = ['admin', 'settings'] as const;
export const DEMO_LICENSE_KEY = ['admin', 'licenses', 'demo'] as const;
export { MAINTENANCE_NOTICE_KEY } from '../../maintenance/keys';

export function useAdminSettings() {
  return useQuery({ queryKey: ADMIN_SETTINGS_KEY, queryFn: () => call(settingsApi.get) });
}

export function useDemoLicense() {
  return useQuery({ queryKey: DEMO_LICENSE_KEY, queryFn: () => call(adminUsersApi.getDemoLicense) });
}

export function useModelNames() {
  return useQuery({ queryKey: ['admin', 'compute-models', 'names'], queryFn: () => call(computeModelsApi.short) });
}

export { adminUsersApi, settingsApi };

export const HEALTHCHECK_KEY = ['admin', 'healthcheck'] as const;
