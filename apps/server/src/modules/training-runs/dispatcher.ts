import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { TRAINING_MAX_ATTEMPTS, TRAINING_RUN_EVENT, type TrainingRunProgress } from '@lamella/contracts';
import type { Db } from '../../platform/db/client.ts';
import { executors, nodes } from '../../platform/db/schema/index.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { LauncherBusy, LauncherUnavailable, launcherHealth } from '../jobs/launcher-client.ts';
import * as models from '../compute-models/service.ts';
import { TrainingRefused, TrainingUnavailable, trainOnLauncher, type TrainLine } from './launcher-client.ts';
import { networkPath } from './network-token.ts';
import * as repo from './repo.ts';
import { trainableImages } from './trainable.ts';

/** Default lease of a running training run (renewed on every line of the launcher). */
export const DEFAULT_TRAINING_LEASE_MS = 30_000;
const TICK_MS = 2000;
const HEALTH_TIMEOUT_MS = 2000;

type Launcher = { id: string; ip: string; port: number; gpuAffinity: number };

export interface TrainingDispatcherDeps {
  db: Db;
  storage: Storage;
  /** Socket events to a user (app.ts's emitToUser). */
  notify: (userId: string, event: string, payload: unknown) => void;
  /** Signs the network addresses launchers fetch (SESSION_SECRET). */
  secret: string;
  /** The server's address as the launcher at `ip` reaches it (loopback for local launchers, else PUBLIC_URL). */
  serverUrl: (launcherIp: string) => string;
  log?: (msg: string) => void;
  /** Embedded database: this process is the only dispatcher, so RUNNING runs found at start are orphans. */
  soleDispatcher: boolean;
  leaseMs?: number;
}

/**
 * Hands QUEUED training runs to launchers that can train (their /health says `canTrain: true`), the highest GPU
 * affinity first (the Servers screen's `gpuAffinity`, then the launcher's own `gpu`), one run per launcher. A run is
 * claimed with one conditional UPDATE (never twice), its lease renewed on every line of the launcher (heartbeat)
 * and every third of the lease while lines come; a launcher silent for a whole lease is aborted. A run whose lease
 * expires (its server died) goes back to QUEUED with the next attempt, FAILED after TRAINING_MAX_ATTEMPTS. Every
 * write is fenced by (status RUNNING, attempt), so a cancelled run or a lost lease changes nothing; cancelling in
 * this process aborts the launcher's request at once (elsewhere, at that dispatcher's next heartbeat write).
 */
export class TrainingDispatcher {
  private readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private stopped = false;
  /** Runs this dispatcher runs now: run id → its abort, and the launcher it is on. */
  private readonly running = new Map<string, { abort: AbortController; launcherId: string }>();
  readonly inflight = new Set<Promise<void>>();
  private admins: { ids: string[]; at: number } | null = null;

  constructor(private readonly deps: TrainingDispatcherDeps) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_TRAINING_LEASE_MS;
  }

  private logError(what: string, err: unknown): void {
    this.deps.log?.(`training dispatcher: ${what}: ${err instanceof Error ? err.message : String(err)}`);
  }

  async start(): Promise<void> {
    if (this.deps.soleDispatcher) for (const r of await repo.requeueOrphans(this.deps.db)) void this.tell(r);
    this.timer = setInterval(() => this.wake(), TICK_MS);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const r of this.running.values()) r.abort.abort(new LauncherUnavailable('the server is stopping'));
    await Promise.allSettled([...this.inflight]);
  }

  /** A run was queued: look for a launcher now. */
  queued(run: repo.RunRow): void {
    void this.tell(run);
    this.wake();
  }

  /** A run was cancelled: abort its launcher's request when it runs here (its fenced writes fail anyway). */
  cancelled(run: repo.RunRow): void {
    this.running.get(run.id)?.abort.abort(new LauncherUnavailable('the run was cancelled'));
    void this.tell(run);
  }

  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err) => this.logError('tick', err))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Every admin is told of each run's status and progress on the socket (`training-run`). */
  async tell(run: repo.RunRow): Promise<void> {
    try {
      if (!this.admins || Date.now() - this.admins.at > 10_000) this.admins = { ids: await repo.adminIds(this.deps.db), at: Date.now() };
      const payload: TrainingRunProgress = {
        runId: run.id,
        modelId: run.modelId,
        status: run.status,
        progress: run.progress ?? null,
        error: run.error ?? null,
        candidateVersion: run.candidateVersion,
      };
      const to = new Set(this.admins.ids);
      if (run.createdBy) to.add(run.createdBy);
      for (const id of to) this.deps.notify(id, TRAINING_RUN_EVENT, payload);
    } catch (err) {
      this.logError('socket event', err);
    }
  }

  private async tick(): Promise<void> {
    const { failed, requeued } = await repo.expireLeases(this.deps.db);
    for (const r of [...failed, ...requeued]) {
      this.deps.log?.(`training run ${r.id}: lease expired; ${r.status === 'FAILED' ? 'FAILED' : 'queued again'}`);
      void this.tell(r);
    }
    if (!(await repo.hasQueued(this.deps.db))) return;
    for (const launcher of await this.trainers()) {
      if (this.stopped) return;
      const run = await repo.claimRun(this.deps.db, launcher.id, this.leaseMs);
      if (!run) return;
      void this.tell(run);
      const abort = new AbortController();
      this.running.set(run.id, { abort, launcherId: launcher.id });
      const p = this.runOnce(run, launcher, abort)
        .catch((err) => this.logError(`run ${run.id}`, err))
        .finally(() => {
          this.running.delete(run.id);
          this.inflight.delete(p);
          this.wake();
        });
      this.inflight.add(p);
    }
  }

  /** Enabled launchers that say they can train and run no training of this dispatcher, highest GPU affinity first. */
  private async trainers(): Promise<Launcher[]> {
    const rows = await this.deps.db
      .select({ id: executors.id, ip: nodes.ip, port: executors.port, gpuAffinity: executors.gpuAffinity, status: nodes.status })
      .from(executors)
      .innerJoin(nodes, eq(nodes.id, executors.nodeId))
      .where(and(eq(executors.isEnabled, true), eq(executors.isUpdating, false)));
    const busy = new Set([...this.running.values()].map((r) => r.launcherId));
    const checked = await Promise.all(
      rows
        .filter((r) => r.status !== 'OFFLINE' && !busy.has(r.id))
        .map(async (r) => {
          try {
            const h = (await launcherHealth(`http://${r.ip}:${r.port}`, HEALTH_TIMEOUT_MS)) as {
              canTrain?: unknown;
              gpu?: unknown;
              training?: unknown;
            };
            // a launcher training already (another server's run, or one it still finishes) would answer 503 BUSY
            return h.canTrain === true && h.training !== true ? { ...r, gpu: typeof h.gpu === 'number' ? h.gpu : 0 } : null;
          } catch {
            return null;
          }
        }),
    );
    return checked
      .filter((r): r is NonNullable<typeof r> => r !== null)
      .sort((a, b) => b.gpuAffinity - a.gpuAffinity || b.gpu - a.gpu)
      .map(({ id, ip, port, gpuAffinity }) => ({ id, ip, port, gpuAffinity }));
  }

  private async runOnce(claimed: repo.RunRow, launcher: Launcher, abort: AbortController): Promise<void> {
    const { db, storage } = this.deps;
    let run = claimed;
    const leaseMs = this.leaseMs;
    let lastBeat = Date.now();
    let progress: TrainLine | undefined;
    let writing: Promise<void> | null = null;
    let dirty = false;
    let lastTold = 0;
    const persist = () => {
      dirty = true;
      if (writing || abort.signal.aborted) return;
      writing = (async () => {
        while (dirty && !abort.signal.aborted) {
          dirty = false;
          try {
            const p = progress;
            if (!(await repo.renewLease(db, run, leaseMs, p))) {
              abort.abort(new LauncherUnavailable('the run is no longer this dispatcher’s (cancelled, or its lease was taken over)'));
              return;
            }
            if (p && Date.now() - lastTold > 300) {
              lastTold = Date.now();
              void this.tell({ ...run, progress: p });
            }
          } catch (err) {
            this.logError(`lease of run ${run.id}`, err);
          }
        }
      })().finally(() => (writing = null));
    };
    const watchdog = setInterval(() => {
      const silent = Date.now() - lastBeat;
      if (silent <= leaseMs) return persist();
      abort.abort(new LauncherUnavailable(`launcher not responding (no line for ${Math.round(silent / 100) / 10} s)`));
    }, leaseMs / 3);
    const networkKey = `networks/runs/${run.id}-${run.attempt}.onnx`;
    let stored: { sha256: string; size: number } | null = null;
    let kept = false;
    try {
      // the selection is checked again now: an image whose owner withdrew consent, that was deleted or no longer
      // allowed for training since the run was started is left out
      const chosen = [...run.imageIds];
      const now = await trainableImages(db, run.modelId, { imageIds: chosen }, { limit: null, offset: 0 });
      const byId = new Map(now.map((r) => [r.id, r]));
      const holdout = run.holdoutImageIds.filter((id) => byId.has(id));
      const all = chosen.filter((id) => byId.has(id));
      const train = all.filter((id) => !holdout.includes(id));
      if (train.length < 1 || holdout.length < 1) {
        const ended = await repo.endRun(db, run, 'FAILED', {
          code: 'NOT_ENOUGH_TRAINING_IMAGES',
          message: `only ${train.length} training and ${holdout.length} held-out images are still trainable (consent withdrawn or images deleted)`,
        });
        if (ended) void this.tell(ended);
        return;
      }
      if (all.length !== run.imageIds.length || holdout.length !== run.holdoutImageIds.length) {
        if (!(await repo.setSelection(db, run, all, holdout))) return;
        run = { ...run, imageIds: all, holdoutImageIds: holdout };
      }
      const model = await models.findModel(db, run.modelId);
      const base = await repo.artefactOf(db, run.modelId, run.baseVersion);
      const server = this.deps.serverUrl(launcher.ip);
      const files: Array<{ field: string; data: Buffer }> = [];
      for (const id of all) {
        const r = byId.get(id)!;
        const [image, mask] = await Promise.all([storage.get(r.image_key), storage.get(r.mask_key)]);
        files.push({ field: `image-${id}`, data: image }, { field: `mask-${id}`, data: mask });
      }
      lastBeat = Date.now();
      const done = await trainOnLauncher(
        `http://${launcher.ip}:${launcher.port}`,
        {
          runId: run.id,
          launcherId: launcher.id,
          model: model.internalName,
          baseVersion: run.baseVersion,
          candidateVersion: run.candidateVersion,
          steps: run.steps,
          seed: run.seed,
          images: all.map((id) => ({ id, holdout: holdout.includes(id) })),
          ...(base ? { baseNetwork: { sha256: base.networkSha256, url: `${server}${networkPath(base.networkSha256, this.deps.secret)}` } } : {}),
        },
        files,
        {
          signal: abort.signal,
          heartbeatMs: Math.max(100, Math.min(5000, Math.floor(leaseMs / 3))),
          onBeat: () => {
            lastBeat = Date.now();
          },
          onStarted: () => persist(),
          onProgress: (p) => {
            progress = p;
            persist();
          },
          onFile: async (filename, source) => {
            if (filename !== 'network.onnx') {
              source.resume();
              return;
            }
            stored = await storeHashed(storage, networkKey, source);
          },
        },
      );
      clearInterval(watchdog);
      await writing;
      const net = stored as { sha256: string; size: number } | null;
      if (!net || net.size === 0) throw new TrainingRefused('NETWORK_MISSING', 'the launcher finished without sending network.onnx');
      const validation = checkValidation(done.validation);
      if (!validation) throw new TrainingRefused('INVALID_VALIDATION', 'the launcher’s validation is not {images:[{id, base, candidate}], total}');
      const creator = run.createdBy ? await repo.findRun(db, run.id) : undefined;
      const card = {
        ...done.card,
        model: model.internalName,
        baseVersion: run.baseVersion,
        version: run.candidateVersion,
        runId: run.id,
        imageIds: all.filter((id) => !holdout.includes(id)),
        imageCount: all.length - holdout.length,
        holdoutImageIds: holdout,
        parameters: {
          ...(done.card.parameters && typeof done.card.parameters === 'object' ? (done.card.parameters as Record<string, unknown>) : {}),
          steps: run.steps,
          seed: run.seed,
          holdoutShare: run.holdoutShare,
        },
        trainedAt: new Date().toISOString(),
        startedBy: run.createdBy && creator?.creatorEmail ? { id: run.createdBy, email: creator.creatorEmail } : null,
      };
      const ended = await repo.inTransaction(db, async (tx) => {
        const row = await repo.endRun(tx, run, 'FINISHED', null, progress);
        if (!row) return null;
        await models.addVersion(tx, run.modelId, run.candidateVersion);
        await repo.insertArtefact(tx, {
          modelId: run.modelId,
          version: run.candidateVersion,
          runId: run.id,
          status: 'CANDIDATE',
          networkKey,
          networkSha256: net.sha256,
          networkSize: net.size,
          card,
          validation,
        });
        return row;
      });
      if (ended) {
        kept = true;
        void this.tell(ended);
        this.deps.log?.(`training run ${run.id}: FINISHED, candidate ${run.candidateVersion}`);
      }
    } catch (err) {
      clearInterval(watchdog);
      await writing;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof TrainingRefused) {
        const ended = await repo.endRun(db, run, 'FAILED', { code: err.code, message });
        if (ended) void this.tell(ended);
      } else if (err instanceof LauncherBusy) {
        // the launcher is training already, or cannot train after all: the run did not start there
        const back = await repo.requeue(db, run, null, true);
        if (back) void this.tell(back);
        if (err instanceof TrainingUnavailable) this.deps.log?.(`training run ${run.id}: launcher ${launcher.id} cannot train: ${message}`);
      } else if (run.attempt >= TRAINING_MAX_ATTEMPTS) {
        const ended = await repo.endRun(db, run, 'FAILED', {
          code: 'TRAINING_LAUNCHER_UNAVAILABLE',
          message: `the run could not be completed after ${run.attempt} attempts (${message})`,
        });
        if (ended) void this.tell(ended);
      } else {
        const back = await repo.requeue(db, run, { code: 'LAUNCHER_UNAVAILABLE', message });
        if (back) void this.tell(back);
        this.deps.log?.(`training run ${run.id} on launcher ${launcher.id}: ${message}; queued again`);
      }
    } finally {
      clearInterval(watchdog);
      if (!abort.signal.aborted) abort.abort(new Error('run ended'));
      if (!kept) await storage.delete(networkKey).catch(() => undefined);
    }
  }
}

/** Streams the network into storage while hashing it. */
async function storeHashed(storage: Storage, key: string, source: Readable): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const tee = new PassThrough();
  source.on('data', (c: Buffer) => {
    hash.update(c);
    size += c.length;
  });
  source.pipe(tee);
  source.on('error', (e) => tee.destroy(e));
  await storage.putStream(key, tee);
  return { sha256: hash.digest('hex'), size };
}

const isMetrics = (v: unknown): v is { fScore: number; deltaG: number } =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as Record<string, unknown>).fScore === 'number' &&
  typeof (v as Record<string, unknown>).deltaG === 'number';

/** The validation in the contract's shape (TrainingValidation), or null. */
function checkValidation(v: unknown): Record<string, unknown> | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as { images?: unknown; total?: unknown };
  if (!Array.isArray(o.images)) return null;
  const images = o.images.filter((im): im is { id: string; base: unknown; candidate: unknown } => !!im && typeof im === 'object');
  if (images.length !== o.images.length) return null;
  for (const im of images) if (typeof im.id !== 'string' || !isMetrics(im.base) || !isMetrics(im.candidate)) return null;
  const total = o.total as { base?: unknown; candidate?: unknown } | undefined;
  if (!total || !isMetrics(total.base) || !isMetrics(total.candidate)) return null;
  return { ...o, images, total };
}
