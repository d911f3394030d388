import { asc, eq, inArray, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App, Ctx } from '../../app.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { computeModels, executors, modelVersions, nodes } from '../../platform/db/schema/index.ts';
import { launcherHealth } from '../jobs/launcher-client.ts';
import { ADMIN, FieldErrors, conflict, isUuid, message } from './common.ts';
import { localProvider } from './providers/local.ts';
import { ovhProvider } from './providers/ovh.ts';
import type { ExecutorRow, NodeProvider, NodeRow } from './providers/types.ts';

const tags = ['admin-servers'];
const Id = Type.Object({ id: Type.String({ format: 'uuid' }) });
const PROVIDERS = ['OVH', 'local'] as const;
const HEALTH_TIMEOUT_MS = 3000;
const UPDATE_TIMEOUT_MS = 3000;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Launcher state of back-office §4: stopped (not enabled), updating (enabled and updating), running. */
export function launcherState(e: { isEnabled: boolean; isUpdating: boolean }): 'stopped' | 'updating' | 'running' {
  if (!e.isEnabled) return 'stopped';
  return e.isUpdating ? 'updating' : 'running';
}

const presentExecutor = (e: ExecutorRow) => ({
  id: e.id,
  nodeId: e.nodeId,
  port: e.port,
  gpuAffinity: e.gpuAffinity,
  version: e.version,
  isEnabled: e.isEnabled,
  isUpdating: e.isUpdating,
  envVariables: e.envVariables,
  state: launcherState(e),
  betaBadge: /beta/i.test(e.version),
  reportedModels: e.reportedModels,
  busy: e.busyJobId !== null,
  lastSeenAt: e.lastSeenAt?.toISOString() ?? null,
  createdAt: e.createdAt.toISOString(),
});

const presentNode = (n: NodeRow, list: ExecutorRow[]) => ({
  id: n.id,
  name: n.name,
  ip: n.ip,
  description: n.description,
  nodeType: n.nodeType,
  status: n.status,
  provider: n.provider,
  instanceId: n.instanceId,
  /** 'STARTING' | 'STOPPING' while a cloud start/stop is under way, else null. */
  transition: n.transition,
  canStart: n.status !== 'ONLINE' && !n.transition,
  canStop: n.status !== 'OFFLINE',
  canAddLauncher: n.status !== 'OFFLINE',
  executorCount: list.length,
  executors: list.map(presentExecutor),
  createdAt: n.createdAt.toISOString(),
});

async function findNode(db: Db, id: string): Promise<NodeRow> {
  const [n] = await db.select().from(nodes).where(eq(nodes.id, id));
  if (!n) throw notFound('node');
  return n;
}

/** Records a launcher's health answer: its models, last contact, and the versions of known models. */
export async function recordHealth(db: Db, executorId: string, reported: Array<{ name: string; versions: string[] }>): Promise<void> {
  await db.update(executors).set({ lastSeenAt: new Date(), reportedModels: reported }).where(eq(executors.id, executorId));
  if (!reported.length) return;
  const known = await db
    .select({ id: computeModels.id, name: computeModels.internalName })
    .from(computeModels)
    .where(
      inArray(
        computeModels.internalName,
        reported.map((m) => m.name),
      ),
    );
  const values = known.flatMap((k) =>
    (reported.find((m) => m.name === k.name)?.versions ?? []).map((version) => ({ modelId: k.id, version: String(version) })),
  );
  if (values.length) await db.insert(modelVersions).values(values).onConflictDoNothing();
}

/** Servers and launchers (back-office §2 Servers screen, §7 Servers and launchers). */
export async function nodeRoutes(app: App, ctx: Ctx): Promise<void> {
  const db = ctx.db;
  const providerFor = (n: NodeRow): NodeProvider | null => {
    if (n.provider === 'local') return localProvider(db, ctx.launchers);
    if (n.provider === 'OVH') return ovhProvider();
    return null;
  };

  app.get('/admin/nodes', { config: ADMIN, schema: { tags } }, async () => {
    const [list, launchers] = await Promise.all([
      db.select().from(nodes).orderBy(asc(nodes.name), asc(nodes.createdAt)),
      db.select().from(executors).orderBy(asc(executors.port)),
    ]);
    return list.map((n) =>
      presentNode(
        n,
        launchers.filter((e) => e.nodeId === n.id),
      ),
    );
  });

  app.post(
    '/admin/nodes',
    {
      config: ADMIN,
      schema: {
        tags,
        body: Type.Object({
          name: Type.Optional(Type.Unknown()),
          ip: Type.Optional(Type.Unknown()),
          description: Type.Optional(Type.Unknown()),
          nodeType: Type.Optional(Type.Unknown()),
          provider: Type.Optional(Type.Unknown()),
          instanceId: Type.Optional(Type.Unknown()),
        }),
      },
    },
    async (request) => {
      const b = request.body;
      const e = new FieldErrors();
      const name = e.required('name', b.name, 'nameRequired');
      const ip = e.required('ip', b.ip, 'ipRequired');
      if (ip && !IPV4.test(ip)) e.add('ip', 'invalidIp');
      const description = e.required('description', b.description, 'descriptionRequired');
      const nodeType = b.nodeType ?? 'ON_PREMISE';
      if (nodeType !== 'ON_PREMISE' && nodeType !== 'CLOUD') e.add('nodeType', 'nodeTypeInvalid');
      let provider: string | null = null;
      let instanceId: string | null = null;
      // Provider and instance id belong to cloud servers only; for ON_PREMISE they are cleared (the form disables them).
      if (nodeType === 'CLOUD') {
        provider = e.required('provider', b.provider, 'providerRequired');
        if (provider && !PROVIDERS.includes(provider as 'OVH')) e.add('provider', 'providerInvalid');
        instanceId = e.required('instanceId', b.instanceId, 'instanceIdRequired');
      }
      e.throwIfAny();
      const [n] = await db
        .insert(nodes)
        .values({ name, ip, description, nodeType: nodeType as 'CLOUD', provider, instanceId, status: nodeType === 'CLOUD' ? 'OFFLINE' : 'UNKNOWN' })
        .returning();
      return presentNode(n, []);
    },
  );

  app.delete('/admin/nodes/:id', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const n = await findNode(db, request.params.id);
    const list = await db.select().from(executors).where(eq(executors.nodeId, n.id));
    if (n.provider === 'local' && ctx.launchers) await Promise.all(list.map((x) => ctx.launchers!.stop(x.id)));
    await db.delete(nodes).where(eq(nodes.id, n.id));
    return { id: n.id, deleted: true };
  });

  app.put('/admin/nodes/:id/start', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const n = await findNode(db, request.params.id);
    // Start is refused when the node is ONLINE or a start/stop is pending (§4).
    if (n.status === 'ONLINE' || n.transition) throw new AppError(409, 'NODE_START_REFUSED', 'adminMessages.nodeStartFailed');
    const provider = providerFor(n);
    if (!provider) throw new AppError(409, 'NODE_NOT_STARTABLE', 'adminErrors.noProvider');
    const launchers = await db.select().from(executors).where(eq(executors.nodeId, n.id));
    const { done } = await provider.start(n, launchers);
    await db
      .update(nodes)
      .set(done ? { transition: null, status: 'UNKNOWN' } : { transition: 'STARTING' })
      .where(eq(nodes.id, n.id));
    return { id: n.id, message: message(request, 'nodeStarting') };
  });

  app.put('/admin/nodes/:id/stop', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const n = await findNode(db, request.params.id);
    // Stop is refused when the node is OFFLINE (§4); a stop already under way is refused too.
    if (n.status === 'OFFLINE' || n.transition === 'STOPPING') throw new AppError(409, 'NODE_STOP_REFUSED', 'adminMessages.nodeStopFailed');
    const provider = providerFor(n);
    if (!provider) throw new AppError(409, 'NODE_NOT_STOPPABLE', 'adminErrors.noProvider');
    const launchers = await db.select().from(executors).where(eq(executors.nodeId, n.id));
    const { done } = await provider.stop(n, launchers);
    await db
      .update(nodes)
      .set(done ? { transition: null, status: 'OFFLINE' } : { transition: 'STOPPING' })
      .where(eq(nodes.id, n.id));
    return { id: n.id, message: message(request, 'nodeStopping') };
  });

  app.post(
    '/admin/executors',
    {
      config: ADMIN,
      schema: {
        tags,
        body: Type.Object({
          version: Type.Optional(Type.Unknown()),
          port: Type.Optional(Type.Unknown()),
          gpuAffinity: Type.Optional(Type.Unknown()),
          envVariables: Type.Optional(Type.Unknown()),
          nodeId: Type.Optional(Type.Unknown()),
        }),
      },
    },
    async (request) => {
      const b = request.body;
      const e = new FieldErrors();
      const version = typeof b.version === 'number' ? String(b.version) : e.required('version', b.version, 'versionRequired');
      const port = b.port === undefined || b.port === null || b.port === '' ? 8000 : Number(b.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) e.add('port', 'portInvalid');
      const gpuAffinity = b.gpuAffinity === undefined || b.gpuAffinity === null || b.gpuAffinity === '' ? 0 : Number(b.gpuAffinity);
      if (!Number.isInteger(gpuAffinity) || gpuAffinity < 0) e.add('gpuAffinity', 'gpuAffinityInvalid');
      let env: unknown = b.envVariables ?? {};
      if (typeof env === 'string') {
        try {
          env = env.trim() ? JSON.parse(env) : {};
        } catch {
          env = null;
        }
      }
      const envOk = env !== null && typeof env === 'object' && !Array.isArray(env);
      if (!envOk) e.add('envVariables', 'invalidJson');
      if (!isUuid(b.nodeId)) e.add('nodeId', 'nodeRequired');
      e.throwIfAny();
      const n = await findNode(db, b.nodeId as string);
      if (n.status === 'OFFLINE') throw conflict('NODE_OFFLINE', 'nodeOffline');
      const envVariables = Object.fromEntries(
        Object.entries(env as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      const [x] = await db.insert(executors).values({ nodeId: n.id, version, port, gpuAffinity, envVariables }).returning();
      if (n.provider === 'local' && ctx.launchers) ctx.launchers.start(x.id, x.port, x.envVariables);
      return { ...presentExecutor(x), message: message(request, 'executorDeployed') };
    },
  );

  app.delete('/admin/executors/:id', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const [x] = await db.select().from(executors).where(eq(executors.id, request.params.id));
    if (!x) throw notFound('executor');
    if (ctx.launchers) await ctx.launchers.stop(x.id);
    await db.delete(executors).where(eq(executors.id, x.id));
    return { id: x.id, deleted: true };
  });

  app.post('/admin/executors/:id/test', { config: ADMIN, schema: { tags, params: Id } }, async (request) => {
    const [row] = await db
      .select({ e: executors, ip: nodes.ip })
      .from(executors)
      .innerJoin(nodes, eq(nodes.id, executors.nodeId))
      .where(eq(executors.id, request.params.id));
    if (!row) throw notFound('executor');
    try {
      const h = await launcherHealth(`http://${row.ip}:${row.e.port}`, HEALTH_TIMEOUT_MS);
      if (h.status !== 'ok') throw new Error(`status ${h.status}`);
      await recordHealth(db, row.e.id, Array.isArray(h.models) ? h.models : []);
      return { isConnected: true, version: h.version ?? null, models: h.models ?? [], message: message(request, 'launcherConnected') };
    } catch {
      return { isConnected: false, message: message(request, 'launcherNotConnected') };
    }
  });

  app.get('/admin/executors/versions', { config: ADMIN, schema: { tags } }, async () => {
    const list = await db
      .selectDistinct({ version: executors.version })
      .from(executors)
      .orderBy(sql`${executors.version} desc`);
    return list.map((v) => v.version);
  });

  // Update All Launchers: every launcher gets the version and is "updating" until it answers POST /update.
  app.put('/admin/executors', { config: ADMIN, schema: { tags, body: Type.Object({ version: Type.Optional(Type.Unknown()) }) } }, async (request) => {
    const e = new FieldErrors();
    const version =
      typeof request.body.version === 'number' ? String(request.body.version) : e.required('version', request.body.version, 'versionRequired');
    e.throwIfAny();
    const list = await db.update(executors).set({ version, isUpdating: true }).returning();
    const ips = new Map((await db.select({ id: nodes.id, ip: nodes.ip }).from(nodes)).map((n) => [n.id, n.ip]));
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
          await db.update(executors).set({ isUpdating: false }).where(eq(executors.id, x.id));
          return { id: x.id, answered: true, status: res.status };
        } catch {
          // Unreachable launchers stay "updating" until an administrator looks at them.
          return { id: x.id, answered: false, status: null };
        }
      }),
    );
    return { version, executors: results, message: message(request, 'executorsUpdated') };
  });
}
