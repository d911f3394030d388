/** Servers (nodes) and launchers (executors) calls (back-office.md §7), typed from the contracts. */
import { useQuery } from '@tanstack/react-query';
import { computeNodesApi } from '@lamella/contracts';
import { call } from '../../../api/client';

export const NODES_KEY = ['admin', 'nodes'] as const;
export const LAUNCHER_VERSIONS_KEY = ['admin', 'executor-versions'] as const;
/** The list refreshes often enough to show "not responding" (15 s health window) without a reload. */
const NODES_REFRESH_MS = 10_000;

export function useNodes() {
  return useQuery({ queryKey: NODES_KEY, queryFn: () => call(computeNodesApi.list), refetchInterval: NODES_REFRESH_MS });
}

/** The versions the launchers report now: the only ones "Update All Launchers" offers. */
export function useLauncherVersions(enabled = true) {
  return useQuery({ queryKey: LAUNCHER_VERSIONS_KEY, queryFn: () => call(computeNodesApi.versions), staleTime: 30_000, enabled });
}

/** Add Launcher's choices: versions the launchers report, and the releases of this build. */
export function useLauncherVersionChoices(enabled = true) {
  return useQuery({
    queryKey: [...LAUNCHER_VERSIONS_KEY, 'choices'],
    queryFn: () => call(computeNodesApi.versionChoices),
    staleTime: 30_000,
    enabled,
  });
}

export { computeNodesApi };
