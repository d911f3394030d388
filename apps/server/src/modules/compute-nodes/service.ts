import { readFileSync } from 'node:fs';
import { translate } from '@lamella/i18n';
import type {
  ComputeDeleted,
  ComputeNode,
  CreatedLauncher,
  CreateLauncherBody,
  CreateNodeBody,
  Launcher,
  LauncherState,
  LauncherTestAnswer,
  LauncherVersionChoices,
  UpdateLaunchersAnswer,
} from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import type { LauncherSupervisor } from '../../platform/compute/supervisor.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { recordReportedVersions } from '../compute-models/service.ts';
import { launcherHealth } from '../jobs/launcher-client.ts';
import { localLauncherEnv, localProvider } from './providers/local.ts';
import { ovhProvider } from './providers/ovh.ts';
import type { NodeProvider } from './providers/types.ts';
import * as repo from './repo.ts';

export interface NodesDeps {
  db: Db;
  /** Starts and stops the launcher processes of `local` nodes; null when this process does not manage any. */
  launchers: LauncherSupervisor | null;
  /** A launcher answered its health check just now (registration): the dispatcher may use it at once. */
  onLauncherReady?: (executorId: string) => void;
  /** How long Add Launcher waits for the new launcher's health answer (default DEPLOY_WAIT_MS). */
  deployWaitMs?: number;
}
type Lng = string;

export const LOCAL_PROVIDER = 'local';
const PROVIDERS = ['OVH', LOCAL_PROVIDER] as const;
const HEALTH_TIMEOUT_MS = 3000;
const UPDATE_TIMEOUT_MS = 3000;
/** A launcher whose last health answer is older than this is "not responding" (the dispatcher asks every 5 s). */
export const HEALTH_WINDOW_MS = 15_000;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isUuid = (v: unknown): v is string => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

const say = (lng: Lng, key: string) => translate(lng, `adminMessages.${key}`);
const err = (key: string) => `adminErrors.${key}`;
const conflict = (code: string, key: string, vars: Record<string, string | number> = {}) => new AppError(409, code, key, vars);
const requiredText = (e: FieldErrors, field: string, value: unknown, key: string): string => {
  if (typeof value !== 'string' || !value.trim()) {
    e.add(field, err(key));
    return '';
  }
  return value.trim();
};

/** Launcher state of back-office §4 from its settings alone: stopped (not enabled), updating, running. */
export function launcherState(e: { isEnabled: boolean; isUpdating: boolean }): 'stopped' | 'updating' | 'running' {
  if (!e.isEnabled) return 'stopped';
  return e.isUpdating ? 'updating' : 'running';
}

/** Enabled and not heard from within the health window; a launcher that never answered is not responding either. */
export function isNotResponding(e: { isEnabled: boolean; lastSeenAt: Date | null }, now = Date.now()): boolean {
  return e.isEnabled && (e.lastSeenAt === null || now - e.lastSeenAt.getTime() > HEALTH_WINDOW_MS);
}

/**
 * Exactly one state (issue 26), from the settings and the last health check: stopped, updating, then running when
 * its last health answer is within the window (an answer beats an old process failure: a launcher that was killed
 * and restarted runs jobs again), else failed when its local process could not start or keeps dying, else not
 * responding.
 */
export function currentState(
  e: { isEnabled: boolean; isUpdating: boolean; lastSeenAt: Date | null },
  processFailed: boolean,
  now = Date.now(),
): LauncherState {
  const set = launcherState(e);
  if (set !== 'running') return set;
  if (!isNotResponding(e, now)) return 'running';
  return processFailed ? 'failed' : 'notResponding';
}

function presentExecutor(e: repo.ExecutorRow, node: repo.NodeRow | undefined, deps: NodesDeps): Launcher {
  // A local launcher whose process cannot start (or keeps dying) is failed, unless it answered since.
  const proc = node?.provider === LOCAL_PROVIDER && deps.launchers ? deps.launchers.status(e.id) : null;
  const state = currentState(e, proc?.state === 'failed');
  const failure = state === 'failed' && proc?.state === 'failed' ? proc.failure : null;
  return {
    id: e.id,
    nodeId: e.nodeId,
    port: e.port,
    gpuAffinity: e.gpuAffinity,
    version: e.version,
    isEnabled: e.isEnabled,
    isUpdating: e.isUpdating,
    envVariables: e.envVariables,
    state,
    failure,
    notResponding: state === 'notResponding',
    betaBadge: /beta/i.test(e.version),
    reportedModels: e.reportedModels,
    busy: e.busyJobId !== null,
    lastSeenAt: e.lastSeenAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
  };
}

function presentNode(n: repo.NodeRow, list: repo.ExecutorRow[], deps: NodesDeps): ComputeNode {
  return {
    id: n.id,
    name: n.name,
    ip: n.ip,
    description: n.description,
    nodeType: n.nodeType,
    status: n.status,
    provider: n.provider,
    instanceId: n.instanceId,
    transition: n.transition,
    canStart: n.status !== 'ONLINE' && !n.transition,
    canStop: n.status !== 'OFFLINE',
    // on-premise machines take a launcher whatever their last health check said (a replacement for a frozen one);
    // a stopped cloud machine cannot
    canAddLauncher: n.nodeType === 'ON_PREMISE' || n.status !== 'OFFLINE',
    executorCount: list.length,
    executors: list.map((e) => presentExecutor(e, n, deps)),
    createdAt: n.createdAt.toISOString(),
  };
}

async function findNode(db: Db, id: string): Promise<repo.NodeRow> {
  const n = await repo.findNode(db, id);
  if (!n) throw notFound('node');
  return n;
}

function providerFor(deps: NodesDeps, n: repo.NodeRow): NodeProvider | null {
  if (n.provider === LOCAL_PROVIDER) return localProvider(deps.db, deps.launchers);
  if (n.provider === 'OVH') return ovhProvider();
  return null;
}

/** Records a launcher's health answer: its models, last contact, and the versions of known models. */
export async function recordHealth(db: Db, executorId: string, reported: Array<{ name: string; versions: string[] }>): Promise<void> {
  await repo.recordContact(db, executorId, reported);
  await recordReportedVersions(db, reported);
}

export async function list(deps: NodesDeps): Promise<ComputeNode[]> {
  const [nodes, launchers] = await Promise.all([repo.listNodes(deps.db), repo.listExecutors(deps.db)]);
  return nodes.map((n) =>
    presentNode(
      n,
      launchers.filter((e) => e.nodeId === n.id),
      deps,
    ),
  );
}

/**
 * A new server. Its IP must not be another server's: two entries for one machine would let two launchers take
 * the same port. The built-in `local` node (this machine, whatever its address) is the one exception, so the
 * machine that runs Lamella can also be registered as an on-premise server; launcher ports are then checked
 * across both (see createLauncher).
 */
export async function createNode(deps: NodesDeps, actorId: string, b: CreateNodeBody): Promise<ComputeNode> {
  const e = new FieldErrors();
  const name = requiredText(e, 'name', b.name, 'nameRequired');
  const ip = requiredText(e, 'ip', b.ip, 'ipRequired');
  if (ip && !IPV4.test(ip)) e.add('ip', err('invalidIp'));
  const description = requiredText(e, 'description', b.description, 'descriptionRequired');
  const nodeType = b.nodeType ?? 'ON_PREMISE';
  let provider: string | null = null;
  let instanceId: string | null = null;
  // Provider and instance id belong to cloud servers only; for ON_PREMISE they are cleared (the form disables them).
  if (nodeType === 'CLOUD') {
    provider = requiredText(e, 'provider', b.provider, 'providerRequired');
    if (provider && !PROVIDERS.includes(provider as 'OVH')) e.add('provider', err('providerInvalid'));
    instanceId = requiredText(e, 'instanceId', b.instanceId, 'instanceIdRequired');
  }
  e.throwIfAny();
  const n = await repo.inTransaction(deps.db, async (tx) => {
    const same = (await repo.nodesWithIp(tx, ip)).filter((x) => x.provider !== LOCAL_PROVIDER || provider === LOCAL_PROVIDER);
    if (same.length) throw conflict('NODE_IP_TAKEN', 'compute.errors.ipTaken', { ip, name: same[0].name });
    const row = await repo.insertNode(tx, {
      name,
      ip,
      description,
      nodeType,
      provider,
      instanceId,
      status: nodeType === 'CLOUD' ? 'OFFLINE' : 'UNKNOWN',
    });
    await recordAudit(tx, { actorId, action: 'node.create', targetType: 'node', targetId: row.id, details: { name, ip, nodeType, provider } });
    return row;
  });
  return presentNode(n, [], deps);
}

export async function removeNode(deps: NodesDeps, actorId: string, id: string): Promise<ComputeDeleted> {
  const n = await findNode(deps.db, id);
  const list = await repo.executorsOfNode(deps.db, n.id);
  const supervisor = deps.launchers;
  if (n.provider === LOCAL_PROVIDER && supervisor) await Promise.all(list.map((x) => supervisor.stop(x.id)));
  await repo.inTransaction(deps.db, async (tx) => {
    await repo.deleteNode(tx, n.id);
    await recordAudit(tx, { actorId, action: 'node.delete', targetType: 'node', targetId: n.id, details: { name: n.name, ip: n.ip } });
  });
  return { id: n.id, deleted: true };
}

export async function startNode(deps: NodesDeps, actorId: string, id: string, lng: Lng) {
  const n = await findNode(deps.db, id);
  // Start is refused when the node is ONLINE or a start/stop is pending (§4).
  if (n.status === 'ONLINE' || n.transition) throw conflict('NODE_START_REFUSED', 'adminMessages.nodeStartFailed');
  const provider = providerFor(deps, n);
  if (!provider) throw conflict('NODE_NOT_STARTABLE', err('noProvider'));
  const { done } = await provider.start(n, await repo.executorsOfNode(deps.db, n.id));
  await repo.inTransaction(deps.db, async (tx) => {
    await repo.setNodeState(tx, n.id, done ? { transition: null, status: 'UNKNOWN' } : { transition: 'STARTING' });
    await recordAudit(tx, { actorId, action: 'node.start', targetType: 'node', targetId: n.id });
  });
  return { id: n.id, message: say(lng, 'nodeStarting') };
}

export async function stopNode(deps: NodesDeps, actorId: string, id: string, lng: Lng) {
  const n = await findNode(deps.db, id);
  // Stop is refused when the node is OFFLINE (§4); a stop already under way is refused too.
  if (n.status === 'OFFLINE' || n.transition === 'STOPPING') throw conflict('NODE_STOP_REFUSED', 'adminMessages.nodeStopFailed');
  const provider = providerFor(deps, n);
  if (!provider) throw conflict('NODE_NOT_STOPPABLE', err('noProvider'));
  const { done } = await provider.stop(n, await repo.executorsOfNode(deps.db, n.id));
  await repo.inTransaction(deps.db, async (tx) => {
    await repo.setNodeState(tx, n.id, done ? { transition: null, status: 'OFFLINE' } : { transition: 'STOPPING' });
    await recordAudit(tx, { actorId, action: 'node.stop', targetType: 'node', targetId: n.id });
  });
  return { id: n.id, message: say(lng, 'nodeStopping') };
}

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * A new launcher. Its port must be free on that machine: no other launcher of a server with the same IP
 * (the node itself, or the `local` node and an on-premise entry for this machine) may use it.
 */
export async function createLauncher(deps: NodesDeps, actorId: string, b: CreateLauncherBody, lng: Lng): Promise<CreatedLauncher> {
  const e = new FieldErrors();
  const version = typeof b.version === 'number' ? String(b.version) : requiredText(e, 'version', b.version, 'versionRequired');
  const port = blank(b.port) ? 8000 : Number(b.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) e.add('port', err('portInvalid'));
  const gpuAffinity = blank(b.gpuAffinity) ? 0 : Number(b.gpuAffinity);
  if (!Number.isInteger(gpuAffinity) || gpuAffinity < 0) e.add('gpuAffinity', err('gpuAffinityInvalid'));
  let env: unknown = b.envVariables ?? {};
  if (typeof env === 'string') {
    try {
      env = env.trim() ? JSON.parse(env) : {};
    } catch {
      env = null;
    }
  }
  if (env === null || typeof env !== 'object' || Array.isArray(env)) e.add('envVariables', err('invalidJson'));
  if (!isUuid(b.nodeId)) e.add('nodeId', err('nodeRequired'));
  e.throwIfAny();
  const n = await findNode(deps.db, b.nodeId as string);
  if (n.nodeType === 'CLOUD' && n.status === 'OFFLINE') throw conflict('NODE_OFFLINE', err('nodeOffline'));
  const envVariables = Object.fromEntries(
    Object.entries(env as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  const x = await repo.inTransaction(deps.db, async (tx) => {
    const machine = (await repo.nodesWithIp(tx, n.ip)).map((m) => m.id);
    if ((await repo.executorsOnPort(tx, [...new Set([n.id, ...machine])], port)).length)
      throw conflict('LAUNCHER_PORT_TAKEN', 'compute.errors.portTaken', { port, ip: n.ip });
    const row = await repo.insertExecutor(tx, { nodeId: n.id, version, port, gpuAffinity, envVariables });
    await recordAudit(tx, {
      actorId,
      action: 'launcher.create',
      targetType: 'launcher',
      targetId: row.id,
      details: { nodeId: n.id, port, version, gpuAffinity, envKeys: Object.keys(envVariables) },
    });
    return row;
  });
  if (n.provider === LOCAL_PROVIDER && deps.launchers) deps.launchers.start(x.id, x.port, localLauncherEnv(x));
  // Deployed only once it answered its health check (a local process needs a few seconds to listen).
  const local = n.provider === LOCAL_PROVIDER && !!deps.launchers;
  // a local process that already failed (the port is taken, it exits at once) is not waited for any longer
  const supervisor = local ? deps.launchers : undefined;
  const processFailed = () => {
    const s = supervisor?.status(x.id);
    return s?.state === 'failed' ? (s.failure ?? '') : null;
  };
  const answered = await awaitHealth(deps, n.ip, x, deps.deployWaitMs ?? (local ? LOCAL_DEPLOY_WAIT_MS : DEPLOY_WAIT_MS), processFailed);
  const failure = answered ? null : processFailed();
  const row = (await repo.findExecutor(deps.db, x.id)) ?? x;
  if (answered) deps.onLauncherReady?.(x.id);
  return {
    ...presentExecutor(row, n, deps),
    deployed: answered,
    message: answered
      ? say(lng, 'executorDeployed')
      : failure !== null
        ? translate(lng, 'compute.errors.launcherFailedToStart', { port: x.port, failure: failure || '—' })
        : translate(lng, 'compute.errors.launcherNotAnswering', { ip: n.ip, port: x.port }),
  };
}

/** How long Add Launcher waits for the new launcher's first health answer. */
export const DEPLOY_WAIT_MS = 10_000;
/**
 * The same for a launcher this server starts itself (the local provider): the process is known to be starting, and
 * on a slow or busy machine it needs more than 10 s to load the engine and listen (19 s was seen on a 2-core machine
 * running other work); the answer comes as soon as it listens.
 */
export const LOCAL_DEPLOY_WAIT_MS = 45_000;

/**
 * Asks the launcher for its health every 500 ms until it answers (recorded), `waitMs` passed, or `failed` says its
 * local process could not start (a failure text, not null).
 */
async function awaitHealth(
  deps: NodesDeps,
  ip: string,
  x: repo.ExecutorRow,
  waitMs: number,
  failed: () => string | null = () => null,
): Promise<boolean> {
  const until = Date.now() + waitMs;
  for (;;) {
    if (failed() !== null) return false;
    try {
      const h = await launcherHealth(`http://${ip}:${x.port}`, Math.max(500, Math.min(HEALTH_TIMEOUT_MS, until - Date.now())));
      if (h.status === 'ok') {
        await recordHealth(deps.db, x.id, Array.isArray(h.models) ? h.models : []);
        return true;
      }
    } catch {
      // not listening yet (or nothing there)
    }
    if (Date.now() + 500 > until) return false;
    await new Promise((r) => setTimeout(r, 500));
  }
}

export async function removeLauncher(deps: NodesDeps, actorId: string, id: string): Promise<ComputeDeleted> {
  const x = isUuid(id) ? await repo.findExecutor(deps.db, id) : undefined;
  if (!x) throw notFound('executor');
  if (deps.launchers) await deps.launchers.stop(x.id);
  await repo.inTransaction(deps.db, async (tx) => {
    await repo.deleteExecutor(tx, x.id);
    await recordAudit(tx, {
      actorId,
      action: 'launcher.delete',
      targetType: 'launcher',
      targetId: x.id,
      details: { nodeId: x.nodeId, port: x.port },
    });
  });
  return { id: x.id, deleted: true };
}

export async function testLauncher(deps: NodesDeps, id: string, lng: Lng): Promise<LauncherTestAnswer> {
  const row = await repo.findExecutorWithIp(deps.db, id);
  if (!row) throw notFound('executor');
  try {
    const h = await launcherHealth(`http://${row.ip}:${row.e.port}`, HEALTH_TIMEOUT_MS);
    if (h.status !== 'ok') throw new Error(`status ${h.status}`);
    const models = Array.isArray(h.models) ? h.models : [];
    await recordHealth(deps.db, row.e.id, models);
    return { isConnected: true, version: h.version ?? null, models, message: say(lng, 'launcherConnected') };
  } catch {
    return { isConnected: false, message: say(lng, 'launcherNotConnected') };
  }
}

/** The launcher versions the reachable enabled launchers report now (GET /health), newest first. */
export async function reportedVersions(deps: NodesDeps): Promise<string[]> {
  const launchers = await repo.enabledExecutorsWithIp(deps.db);
  const answers = await Promise.all(
    launchers.map(async ({ e, ip }) => {
      try {
        const h = await launcherHealth(`http://${ip}:${e.port}`, HEALTH_TIMEOUT_MS);
        return h.status === 'ok' && typeof h.version === 'string' && h.version ? h.version : null;
      } catch {
        return null;
      }
    }),
  );
  return [...new Set(answers.filter((v): v is string => v !== null))].sort((a, b) => b.localeCompare(a, undefined, { numeric: true }));
}

/** The launcher release this Lamella build ships (the repository's version, as the local launcher reports it). */
const RELEASES: string[] = (() => {
  try {
    const v = (JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { version?: unknown }).version;
    return typeof v === 'string' && v ? [v] : [];
  } catch {
    return [];
  }
})();

/** Add Launcher's choices: the versions the launchers report now, and the releases (never free text). */
export async function versionChoices(deps: NodesDeps): Promise<LauncherVersionChoices> {
  const reported = await reportedVersions(deps);
  return { reported, releases: RELEASES.filter((v) => !reported.includes(v)) };
}

/**
 * Update All Launchers: only to a version a launcher reports (anything else would leave every launcher asking
 * for a version nobody has). Every launcher gets the version and is "updating" until it answers POST /update.
 */
export async function updateAll(deps: NodesDeps, actorId: string, rawVersion: string | number | undefined, lng: Lng): Promise<UpdateLaunchersAnswer> {
  const e = new FieldErrors();
  const version = typeof rawVersion === 'number' ? String(rawVersion) : requiredText(e, 'version', rawVersion, 'versionRequired');
  e.throwIfAny();
  const offered = await reportedVersions(deps);
  if (!offered.includes(version)) {
    const vars = { version, versions: offered.join(', ') || '—' };
    throw new AppError(400, 'VERSION_NOT_REPORTED', 'compute.errors.versionNotReported', vars, [
      { field: 'version', key: 'compute.errors.versionNotReported', vars },
    ]);
  }
  const list = await repo.inTransaction(deps.db, async (tx) => {
    const rows = await repo.setAllUpdating(tx, version);
    await recordAudit(tx, {
      actorId,
      action: 'launcher.updateAll',
      targetType: 'launcher',
      targetId: null,
      details: { version, count: rows.length },
    });
    return rows;
  });
  const ips = await repo.nodeIps(deps.db);
  const results = await Promise.all(
    list.map(async (x) => {
      try {
        const res = await fetch(`http://${ips.get(x.nodeId)}:${x.port}/update`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ version }),
          signal: AbortSignal.timeout(UPDATE_TIMEOUT_MS),
        });
        await res.arrayBuffer().catch(() => undefined);
        // The launcher answered: it has taken the version (or has nothing to update); no longer "updating".
        await repo.setUpdated(deps.db, x.id);
        return { id: x.id, answered: true, status: res.status };
      } catch {
        // Unreachable launchers stay "updating" until an administrator looks at them.
        return { id: x.id, answered: false, status: null };
      }
    }),
  );
  return { version, executors: results, message: say(lng, 'executorsUpdated') };
}

/**
 * The node of this machine (provider `local`) with one launcher on `launcherPort`, created on first start;
 * its enabled launchers are started by the supervisor (a healthy launcher left on a port is reused).
 */
export async function startLocalNode(db: Db, supervisor: LauncherSupervisor, launcherPort: number, version: string): Promise<void> {
  let node = await repo.findNodeByProvider(db, LOCAL_PROVIDER);
  if (!node) {
    node = await repo.insertNode(db, {
      name: 'local',
      ip: '127.0.0.1',
      description: 'This machine: launchers started by the Lamella server',
      nodeType: 'ON_PREMISE',
      provider: LOCAL_PROVIDER,
      status: 'UNKNOWN',
    });
    await repo.insertExecutor(db, { nodeId: node.id, port: launcherPort, version });
  }
  let list = await repo.enabledExecutorsOfNode(db, node.id);
  // LAUNCHER_PORT moves the node's single launcher.
  if (list.length === 1 && list[0].port !== launcherPort) {
    await repo.setExecutorPort(db, list[0].id, launcherPort);
    list = [{ ...list[0], port: launcherPort }];
  }
  for (const e of list) supervisor.start(e.id, e.port, localLauncherEnv(e));
}
