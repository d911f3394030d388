import { useQuery } from '@tanstack/react-query';
import { adminDashboardApi as api } from '@lamella/contracts';
import { call } from '../../../api/client';

/** The dashboard figures (back-office.md §7 "Dashboard"); current jobs are refetched every 5 s (§9). */
export const CURRENT_JOBS_POLL_MS = 5_000;

const key = (name: string) => ['admin', 'dashboard', name] as const;

export const useCurrentJobs = () =>
  useQuery({ queryKey: key('currentJobs'), queryFn: () => call(api.currentJobs), refetchInterval: CURRENT_JOBS_POLL_MS });
export const useAverageTimes = () => useQuery({ queryKey: key('averageTimes'), queryFn: () => call(api.averageTimes) });
export const useFails = () => useQuery({ queryKey: key('fails'), queryFn: () => call(api.fails) });
export const useSuccess = () => useQuery({ queryKey: key('success'), queryFn: () => call(api.success) });
export const useActiveUsers = () => useQuery({ queryKey: key('activeUsers'), queryFn: () => call(api.activeUsers) });
export const useAverageNps = () => useQuery({ queryKey: key('averageNps'), queryFn: () => call(api.averageNps) });
export const useLicenses = () => useQuery({ queryKey: key('licenses'), queryFn: () => call(api.licenses) });
export const useCustomers = () => useQuery({ queryKey: key('customers'), queryFn: () => call(api.customers) });
