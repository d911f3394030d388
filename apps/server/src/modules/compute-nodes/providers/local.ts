import type { Db } from '../../../platform/db/client.ts';
import type { LauncherSupervisor } from '../../../platform/compute/supervisor.ts';
import { AppError } from '../../../platform/http/errors.ts';
import * as repo from '../repo.ts';
import type { NodeProvider } from './types.ts';

/**
 * The environment of a local launcher process: the launcher's own variables, and its GPU affinity as
 * LAUNCHER_GPU_AFFINITY (the launcher reports it on /health as `gpu`, and the training dispatcher prefers the
 * highest). The executor's field wins over a variable of the same name, so what the Servers screen shows is what
 * the process runs with.
 */
export function localLauncherEnv(e: { gpuAffinity: number; envVariables: Record<string, string> }): Record<string, string> {
  return { ...e.envVariables, LAUNCHER_GPU_AFFINITY: String(e.gpuAffinity) };
}

/**
 * The built-in `local` provider: the node's launchers are child processes of this server (the supervisor).
 * Start enables every launcher and spawns it; Stop ends the processes and disables the launchers
 * (launcher state "stopped"). The dispatcher's health check then marks the node ONLINE or OFFLINE.
 */
export function localProvider(db: Db, supervisor: LauncherSupervisor | null): NodeProvider {
  const need = () => {
    if (!supervisor) throw new AppError(502, 'LOCAL_LAUNCHERS_UNAVAILABLE', 'adminErrors.localUnavailable');
    return supervisor;
  };
  return {
    async start(_node, launchers) {
      const s = need();
      await repo.setLaunchersEnabled(
        db,
        launchers.map((e) => e.id),
      );
      for (const e of launchers) s.start(e.id, e.port, localLauncherEnv(e));
      return { done: true };
    },
    async stop(node, launchers) {
      const s = need();
      await Promise.all(launchers.map((e) => s.stop(e.id)));
      await repo.disableNodeLaunchers(db, node.id);
      return { done: true };
    },
  };
}
