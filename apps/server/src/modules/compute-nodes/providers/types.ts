import type { executors, nodes } from '../../../platform/db/schema/index.ts';

export type NodeRow = typeof nodes.$inferSelect;
export type ExecutorRow = typeof executors.$inferSelect;

/** Starts and stops a server (back-office Servers: Start/Stop). Throws AppError when it cannot. */
export interface NodeProvider {
  /** true when the provider finished at once (local processes); false when the cloud will take a while. */
  start(node: NodeRow, launchers: ExecutorRow[]): Promise<{ done: boolean }>;
  stop(node: NodeRow, launchers: ExecutorRow[]): Promise<{ done: boolean }>;
}
