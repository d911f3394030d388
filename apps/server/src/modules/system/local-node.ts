import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { executors, nodes } from '../../platform/db/schema/index.ts';
import type { LauncherSupervisor } from '../../platform/compute/supervisor.ts';

export const LOCAL_PROVIDER = 'local';

/**
 * The node of this machine (provider `local`) with one launcher on `launcherPort`, created on first start;
 * its enabled launchers are started as child processes.
 */
export async function startLocalNode(db: Db, supervisor: LauncherSupervisor, launcherPort: number, version: string): Promise<void> {
  let [node] = await db.select().from(nodes).where(eq(nodes.provider, LOCAL_PROVIDER)).limit(1);
  if (!node) {
    [node] = await db
      .insert(nodes)
      .values({
        name: 'local',
        ip: '127.0.0.1',
        description: 'This machine: launchers started by the Lamella server',
        nodeType: 'ON_PREMISE',
        provider: LOCAL_PROVIDER,
        status: 'UNKNOWN',
      })
      .returning();
    await db.insert(executors).values({ nodeId: node.id, port: launcherPort, version });
  }
  let list = await db
    .select()
    .from(executors)
    .where(and(eq(executors.nodeId, node.id), eq(executors.isEnabled, true)));
  // LAUNCHER_PORT moves the node's single launcher.
  if (list.length === 1 && list[0].port !== launcherPort) {
    await db.update(executors).set({ port: launcherPort }).where(eq(executors.id, list[0].id));
    list = [{ ...list[0], port: launcherPort }];
  }
  for (const e of list) supervisor.start(e.id, e.port, e.envVariables);
}
