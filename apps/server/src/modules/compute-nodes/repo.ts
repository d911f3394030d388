import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { executors, launcherRegistrations, launcherRegistrationTokens, nodes } from '../../platform/db/schema/index.ts';
import type { ExecutorRow, NodeRow } from './providers/types.ts';

export type { ExecutorRow, NodeRow };
export type NewNode = typeof nodes.$inferInsert;
export type NewExecutor = typeof executors.$inferInsert;

/** Runs `fn` in one transaction (the transaction handed over as a Db). */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}

export function listNodes(db: Db): Promise<NodeRow[]> {
  return db.select().from(nodes).orderBy(asc(nodes.name), asc(nodes.createdAt));
}

export function listExecutors(db: Db): Promise<ExecutorRow[]> {
  return db.select().from(executors).orderBy(asc(executors.port));
}

export async function findNode(db: Db, id: string): Promise<NodeRow | undefined> {
  const [n] = await db.select().from(nodes).where(eq(nodes.id, id));
  return n;
}

export async function findNodeByProvider(db: Db, provider: string): Promise<NodeRow | undefined> {
  const [n] = await db.select().from(nodes).where(eq(nodes.provider, provider)).limit(1);
  return n;
}

/** Servers with this IP. */
export function nodesWithIp(db: Db, ip: string): Promise<NodeRow[]> {
  return db.select().from(nodes).where(eq(nodes.ip, ip));
}

export async function insertNode(db: Db, values: NewNode): Promise<NodeRow> {
  const [n] = await db.insert(nodes).values(values).returning();
  return n;
}

export async function setNodeState(db: Db, id: string, values: Pick<Partial<NewNode>, 'status' | 'transition'>): Promise<void> {
  await db.update(nodes).set(values).where(eq(nodes.id, id));
}

export async function deleteNode(db: Db, id: string): Promise<void> {
  await db.delete(nodes).where(eq(nodes.id, id));
}

export function executorsOfNode(db: Db, nodeId: string): Promise<ExecutorRow[]> {
  return db.select().from(executors).where(eq(executors.nodeId, nodeId));
}

export function enabledExecutorsOfNode(db: Db, nodeId: string): Promise<ExecutorRow[]> {
  return db
    .select()
    .from(executors)
    .where(and(eq(executors.nodeId, nodeId), eq(executors.isEnabled, true)));
}

/** Launchers on any of these nodes using this port. */
export function executorsOnPort(db: Db, nodeIds: string[], port: number): Promise<ExecutorRow[]> {
  if (!nodeIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(executors)
    .where(and(inArray(executors.nodeId, nodeIds), eq(executors.port, port)));
}

export async function findExecutor(db: Db, id: string): Promise<ExecutorRow | undefined> {
  const [x] = await db.select().from(executors).where(eq(executors.id, id));
  return x;
}

export async function findExecutorWithIp(db: Db, id: string): Promise<{ e: ExecutorRow; ip: string } | undefined> {
  const [row] = await db
    .select({ e: executors, ip: nodes.ip })
    .from(executors)
    .innerJoin(nodes, eq(nodes.id, executors.nodeId))
    .where(eq(executors.id, id));
  return row;
}

/** Enabled launchers with the address of their server. */
export function enabledExecutorsWithIp(db: Db): Promise<Array<{ e: ExecutorRow; ip: string }>> {
  return db
    .select({ e: executors, ip: nodes.ip })
    .from(executors)
    .innerJoin(nodes, eq(nodes.id, executors.nodeId))
    .where(eq(executors.isEnabled, true));
}

export async function insertExecutor(db: Db, values: NewExecutor): Promise<ExecutorRow> {
  const [x] = await db.insert(executors).values(values).returning();
  return x;
}

export async function deleteExecutor(db: Db, id: string): Promise<void> {
  await db.delete(executors).where(eq(executors.id, id));
}

export async function setExecutorPort(db: Db, id: string, port: number): Promise<void> {
  await db.update(executors).set({ port }).where(eq(executors.id, id));
}

export async function recordContact(db: Db, id: string, reportedModels: Array<{ name: string; versions: string[] }>): Promise<void> {
  await db.update(executors).set({ lastSeenAt: new Date(), reportedModels }).where(eq(executors.id, id));
}

export async function setLaunchersEnabled(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.update(executors).set({ isEnabled: true }).where(inArray(executors.id, ids));
}

export async function disableNodeLaunchers(db: Db, nodeId: string): Promise<void> {
  await db.update(executors).set({ isEnabled: false, busyJobId: null }).where(eq(executors.nodeId, nodeId));
}

/** Every launcher takes the version and is "updating". */
export function setAllUpdating(db: Db, version: string): Promise<ExecutorRow[]> {
  return db.update(executors).set({ version, isUpdating: true }).returning();
}

export async function setUpdated(db: Db, id: string): Promise<void> {
  await db.update(executors).set({ isUpdating: false }).where(eq(executors.id, id));
}

export async function nodeIps(db: Db): Promise<Map<string, string>> {
  return new Map((await db.select({ id: nodes.id, ip: nodes.ip }).from(nodes)).map((n) => [n.id, n.ip]));
}

// ---- Registration tokens (launchers that join by themselves) ------------------------------------------------

export type TokenRow = typeof launcherRegistrationTokens.$inferSelect;

export async function insertToken(db: Db, values: typeof launcherRegistrationTokens.$inferInsert): Promise<TokenRow> {
  const [row] = await db.insert(launcherRegistrationTokens).values(values).returning();
  return row;
}

/** A node's tokens, newest first, with the number of launchers registered with each. */
export async function tokensOfNode(db: Db, nodeId: string): Promise<Array<TokenRow & { launcherCount: number }>> {
  const rows = await db
    .select({ t: launcherRegistrationTokens, launcherCount: count(launcherRegistrations.executorId) })
    .from(launcherRegistrationTokens)
    .leftJoin(launcherRegistrations, eq(launcherRegistrations.tokenId, launcherRegistrationTokens.id))
    .where(eq(launcherRegistrationTokens.nodeId, nodeId))
    .groupBy(launcherRegistrationTokens.id)
    .orderBy(asc(launcherRegistrationTokens.createdAt));
  return rows.map((r) => ({ ...r.t, launcherCount: Number(r.launcherCount) })).reverse();
}

export async function findToken(db: Db, id: string): Promise<TokenRow | undefined> {
  const [row] = await db.select().from(launcherRegistrationTokens).where(eq(launcherRegistrationTokens.id, id));
  return row;
}

/** The token with this hash and its node. */
export async function findTokenByHash(db: Db, tokenHash: string): Promise<{ t: TokenRow; node: NodeRow } | undefined> {
  const [row] = await db
    .select({ t: launcherRegistrationTokens, node: nodes })
    .from(launcherRegistrationTokens)
    .innerJoin(nodes, eq(nodes.id, launcherRegistrationTokens.nodeId))
    .where(eq(launcherRegistrationTokens.tokenHash, tokenHash));
  return row;
}

export async function touchToken(db: Db, id: string): Promise<void> {
  await db.update(launcherRegistrationTokens).set({ lastUsedAt: new Date() }).where(eq(launcherRegistrationTokens.id, id));
}

export async function deleteToken(db: Db, id: string): Promise<void> {
  await db.delete(launcherRegistrationTokens).where(eq(launcherRegistrationTokens.id, id));
}

/** The launchers registered with a token. */
export async function executorIdsOfToken(db: Db, tokenId: string): Promise<string[]> {
  const rows = await db
    .select({ id: launcherRegistrations.executorId })
    .from(launcherRegistrations)
    .where(eq(launcherRegistrations.tokenId, tokenId));
  return rows.map((r) => r.id);
}

export async function deleteExecutors(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.delete(executors).where(inArray(executors.id, ids));
}

/** The registration of a launcher (which token registered it), if it registered itself. */
export async function registrationOf(db: Db, executorId: string): Promise<typeof launcherRegistrations.$inferSelect | undefined> {
  const [row] = await db.select().from(launcherRegistrations).where(eq(launcherRegistrations.executorId, executorId));
  return row;
}

export async function upsertRegistration(db: Db, values: typeof launcherRegistrations.$inferInsert): Promise<void> {
  await db
    .insert(launcherRegistrations)
    .values(values)
    .onConflictDoUpdate({
      target: launcherRegistrations.executorId,
      set: { tokenId: values.tokenId, host: values.host, slots: values.slots, registeredAt: new Date() },
    });
}

/** A re-registering launcher: its version, enabled again. */
export async function refreshExecutor(db: Db, id: string, version: string): Promise<ExecutorRow> {
  const [row] = await db.update(executors).set({ version, isEnabled: true, isUpdating: false }).where(eq(executors.id, id)).returning();
  return row;
}
