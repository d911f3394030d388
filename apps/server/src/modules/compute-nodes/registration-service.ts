import { createHash, randomBytes } from 'node:crypto';
import { translate } from '@lamella/i18n';
import type {
  CreatedRegistrationToken,
  CreateRegistrationTokenBody,
  RegisteredLauncher,
  RegisterLauncherBody,
  RegistrationToken,
  RevokedRegistrationToken,
} from '@lamella/contracts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { FieldErrors } from '../../platform/http/field-errors.ts';
import { recordAudit } from '../audit/service.ts';
import { launcherHealth } from '../jobs/launcher-client.ts';
import { recordHealth, type NodesDeps } from './service.ts';
import * as repo from './repo.ts';

/**
 * Launchers that join by themselves (ARCHITECTURE.md "Several machines"): an ADMIN creates a registration token
 * for a server; a launcher started on that machine with LAUNCHER_SERVER_URL and LAUNCHER_REGISTRATION_TOKEN
 * registers as one of the server's launchers and is used at once. Only the token's SHA-256 is stored.
 */
const TOKEN_PREFIX = 'lrt_';
const HEALTH_TIMEOUT_MS = 3000;
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

function present(t: repo.TokenRow, launcherCount: number): RegistrationToken {
  return {
    id: t.id,
    nodeId: t.nodeId,
    name: t.name,
    tokenPrefix: t.tokenPrefix,
    launcherCount,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
  };
}

async function nodeOf(deps: NodesDeps, id: string): Promise<repo.NodeRow> {
  const n = await repo.findNode(deps.db, id);
  if (!n) throw notFound('node');
  return n;
}

export async function listTokens(deps: NodesDeps, nodeId: string): Promise<RegistrationToken[]> {
  await nodeOf(deps, nodeId);
  return (await repo.tokensOfNode(deps.db, nodeId)).map((t) => present(t, t.launcherCount));
}

export async function createToken(
  deps: NodesDeps,
  actorId: string,
  nodeId: string,
  body: CreateRegistrationTokenBody,
  lng: string,
): Promise<CreatedRegistrationToken> {
  const n = await nodeOf(deps, nodeId);
  const name = body.name?.trim() || n.name;
  const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
  const row = await repo.inTransaction(deps.db, async (tx) => {
    const t = await repo.insertToken(tx, { nodeId: n.id, name, tokenHash: hash(token), tokenPrefix: token.slice(0, 10), createdBy: actorId });
    await recordAudit(tx, { actorId, action: 'launcher.token.create', targetType: 'node', targetId: n.id, details: { tokenId: t.id, name } });
    return t;
  });
  return { ...present(row, 0), token, message: translate(lng, 'registrationTokens.messages.created') };
}

/** Revokes a token: it registers nothing more, and the launchers it registered are removed (their running jobs end by lease). */
export async function revokeToken(deps: NodesDeps, actorId: string, id: string, lng: string): Promise<RevokedRegistrationToken> {
  const t = await repo.findToken(deps.db, id);
  if (!t) throw notFound('registrationToken');
  const removed = await repo.inTransaction(deps.db, async (tx) => {
    const ids = await repo.executorIdsOfToken(tx, t.id);
    await repo.deleteExecutors(tx, ids);
    await repo.deleteToken(tx, t.id);
    await recordAudit(tx, {
      actorId,
      action: 'launcher.token.revoke',
      targetType: 'node',
      targetId: t.nodeId,
      details: { tokenId: t.id, name: t.name, removedLaunchers: ids },
    });
    return ids.length;
  });
  return { id: t.id, revoked: true, removedLaunchers: removed, message: translate(lng, 'registrationTokens.messages.revoked', { count: removed }) };
}

const invalidToken = () => new AppError(401, 'INVALID_REGISTRATION_TOKEN', 'registrationTokens.errors.invalidToken');

/**
 * A launcher registers itself (`Authorization: Bearer <token>`): it becomes (or, registering again after a
 * restart, stays) a launcher of the token's server on the port it listens on. The server checks its health at
 * once and hands it to the dispatcher (`onLauncherReady`), so it takes jobs without waiting for the next round.
 */
export async function registerLauncher(deps: NodesDeps, authorization: string | undefined, b: RegisterLauncherBody): Promise<RegisteredLauncher> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token?.startsWith(TOKEN_PREFIX)) throw invalidToken();
  const found = await repo.findTokenByHash(deps.db, hash(token));
  if (!found) throw invalidToken();
  const { t, node } = found;
  const e = new FieldErrors();
  const port = b.port ?? 8000;
  if (!Number.isInteger(port) || port < 1 || port > 65535) e.add('port', 'registrationTokens.errors.portInvalid');
  if (b.slots !== undefined && (!Number.isInteger(b.slots) || b.slots < 1)) e.add('slots', 'registrationTokens.errors.slotsInvalid');
  const host = b.host?.trim() || null;
  if (host && host !== node.ip) e.add('host', 'registrationTokens.errors.hostMismatch', { host, ip: node.ip, name: node.name });
  e.throwIfAny();
  const version = b.version?.trim() || 'unknown';
  const executor = await repo.inTransaction(deps.db, async (tx) => {
    const machine = (await repo.nodesWithIp(tx, node.ip)).map((m) => m.id);
    const onPort = await repo.executorsOnPort(tx, [...new Set([node.id, ...machine])], port);
    let row: repo.ExecutorRow;
    if (onPort.length) {
      // The same launcher registering again (a restart) keeps its entry; a launcher set up by hand keeps its port.
      const same = onPort.find((x) => x.nodeId === node.id);
      const registration = same ? await repo.registrationOf(tx, same.id) : undefined;
      if (!same || !registration) throw new AppError(409, 'LAUNCHER_PORT_TAKEN', 'compute.errors.portTaken', { port, ip: node.ip });
      row = await repo.refreshExecutor(tx, same.id, version);
    } else {
      row = await repo.insertExecutor(tx, { nodeId: node.id, port, version });
    }
    await repo.upsertRegistration(tx, { executorId: row.id, tokenId: t.id, host, slots: b.slots ?? null });
    await repo.touchToken(tx, t.id);
    return row;
  });
  const url = `http://${node.ip}:${port}`;
  let reachable = false;
  try {
    const h = await launcherHealth(url, HEALTH_TIMEOUT_MS);
    if (h.status === 'ok') {
      await recordHealth(deps.db, executor.id, Array.isArray(h.models) ? h.models : []);
      reachable = true;
      deps.onLauncherReady?.(executor.id);
    }
  } catch {
    // Not reachable yet (starting, or a firewall): the dispatcher's health round picks it up when it answers.
  }
  return { executorId: executor.id, nodeId: node.id, url, reachable };
}
