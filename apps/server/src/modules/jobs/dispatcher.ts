import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { computeModels, executors, images, jobs, masks, modelVersions, nodes, results, users } from '../../platform/db/schema/index.ts';
import { jobCacheKey } from './cache-key.ts';
import { sidecarKey } from '../images/service.ts';
import { recipeRun } from '../recipes/service.ts';
import { recountLicense } from './license.ts';
import { networkOf } from '../training-runs/service.ts';
import { networkPath } from '../training-runs/network-token.ts';
import { endAttempt, startAttempt } from './attempts.ts';
import { LauncherBusy, LauncherUnavailable, ModelError, launcherHealth, runOnLauncher } from './launcher-client.ts';
import type { JobRow } from './present.ts';
import type { SpanContext } from '@opentelemetry/api';
import { silentLog, type Log } from '../../platform/observability/logger.ts';
import type { Metrics } from '../../platform/observability/metrics.ts';
import { inSpan, requestSpanContext, traceHeaders } from '../../platform/observability/tracing.ts';

export const MAX_ATTEMPTS = 3;
/** Default job lease (`JOB_LEASE_SECONDS`). */
export const DEFAULT_LEASE_MS = 30_000;
const HEALTH_EVERY_MS = 5_000;
const HEALTHY_FOR_MS = 15_000;
const JOB_TIMEOUT_MS = 10 * 60_000;
/** Default largest result (`MAX_RESULT_MB`): every line and file of the launcher's answer together. */
export const DEFAULT_MAX_RESULT_BYTES = 512 * 1024 * 1024;

export interface JobEvents {
  created(rows: JobRow[]): void;
}

/**
 * Where a finished job's time went, in ms (bench:pipeline; issue 15 item 2): `queue` creation → claimed by this
 * dispatcher; `transfer` the image read from storage and sent to the launcher until it took the job, plus the
 * result's way back; `model` the launcher's own analysis time (as it reports it; else started → result);
 * `storing` result row, result files and the job's final state written.
 */
export interface JobStageTimes {
  jobId: string;
  queueMs: number;
  transferMs: number;
  modelMs: number;
  storingMs: number;
  /** Wall clock (ms since epoch) when the FINISHED state was stored and the owner's pages told. */
  storedAt: number;
}

type ExecutorRow = typeof executors.$inferSelect & { ip: string };

/**
 * Hands NEW jobs to free launchers. The jobs table is the queue: a job is claimed with
 * `FOR UPDATE SKIP LOCKED`, so several server replicas never take the same job; a PENDING job carries a
 * lease that its dispatcher renews every third of the lease, and an expired lease (a server that died) puts
 * the job back to NEW. While a job runs, every NDJSON line of the launcher (started, heartbeat, progress) is a
 * heartbeat: it sets jobs.heartbeat_at (and progress) and extends the lease. A launcher that sends nothing for
 * a whole lease is not responding: the request is aborted and the job costs an attempt. A launcher that
 * cannot be reached costs an attempt too; after MAX_ATTEMPTS the job is FAILED with the error kept. A model
 * that fails on its input fails the job at once. `attempts` fences every write of a running job: a dispatcher
 * whose lease was taken over changes nothing.
 */
export class Dispatcher implements JobEvents {
  /** Jobs this dispatcher runs on each launcher now. */
  private readonly running = new Map<string, number>();
  /** Jobs each launcher runs at once (its `slots`, one per worker thread; 1 for launchers that don't say). */
  private readonly slots = new Map<string, number>();
  private readonly healthy = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private stopped = false;
  readonly inflight = new Set<Promise<void>>();
  /** Told the stage times of each job this dispatcher finishes (bench/pipeline/run.ts listens; null: nobody). */
  stageListener: ((times: JobStageTimes) => void) | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      storage: Storage;
      notify: (userId: string, event: string, payload: unknown) => void;
      /** A job ended (FINISHED or FAILED) by this dispatcher: the owner is told unless they are watching. */
      jobEnded?: (job: JobRow) => void;
      log?: (msg: string) => void;
      /** Structured log (issue 29): every step of a job, with jobId, userId, launcherId, model and modelVersion. */
      logger?: Log;
      /** Prometheus metrics (queue wait, run time, abandoned attempts, result cache, launchers). */
      metrics?: Metrics | null;
      /** Embedded database: this process is the only dispatcher, so PENDING jobs at start are orphans. */
      soleDispatcher: boolean;
      /** Lease of a running job (`JOB_LEASE_SECONDS`); also the heartbeat window of its launcher. */
      leaseMs?: number;
      /** Largest result accepted (`MAX_RESULT_MB`); a larger one fails its job at once with RESULT_TOO_LARGE. */
      maxResultBytes?: number;
      /**
       * Jobs of a trained version (issue 25) name its network: signed with `secret`, at the server's address as the
       * launcher at an IP reaches it. Without it, jobs of trained versions are sent without their network.
       */
      networks?: { secret: string; serverUrl: (launcherIp: string) => string };
    },
  ) {
    this.leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
    this.maxResultBytes = deps.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    this.logger = deps.logger ?? silentLog;
  }

  private readonly logger: Log;
  /** The trace context of the request that queued each job (its dispatch continues that trace); bounded. */
  private readonly traceParents = new Map<string, SpanContext>();

  /** Launchers as this dispatcher sees them (metrics, readiness). */
  launcherStates(): Array<{ id: string; healthy: boolean; slots: number; busy: number }> {
    const now = Date.now();
    const ids = new Set([...this.slots.keys(), ...this.healthy.keys(), ...this.running.keys()]);
    return [...ids].map((id) => ({
      id,
      healthy: now - (this.healthy.get(id) ?? 0) < HEALTHY_FOR_MS,
      slots: this.slots.get(id) ?? 1,
      busy: this.running.get(id) ?? 0,
    }));
  }

  /** Jobs by status and model (the `lamella_jobs` gauge, read when metrics are scraped). */
  async jobCounts(): Promise<Array<{ status: string; model: string; count: number }>> {
    const rows = await this.deps.db
      .select({ status: jobs.status, model: computeModels.internalName, count: sql<number>`count(*)::int` })
      .from(jobs)
      .innerJoin(computeModels, eq(computeModels.id, jobs.modelId))
      .groupBy(jobs.status, computeModels.internalName);
    return rows.map((r) => ({ status: r.status, model: r.model, count: Number(r.count) }));
  }

  /** Records an attempt (job_attempts): a failure to write it is logged, never fails the job. */
  private async attempt(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (err) {
      this.logError('job attempt record', err);
    }
  }

  /** An attempt given up without a result (metrics; the log line says why). */
  private abandoned(cause: string): void {
    this.deps.metrics?.attemptsAbandoned.labels(cause).inc();
  }

  private readonly leaseMs: number;
  private readonly maxResultBytes: number;

  private logError(what: string, err: unknown): void {
    this.deps.log?.(`dispatcher: ${what}: ${err instanceof Error ? err.message : String(err)}`);
  }

  async start(): Promise<void> {
    if (this.deps.soleDispatcher) {
      await this.deps.db.update(jobs).set({ status: 'NEW', executorId: null, leaseUntil: null, progress: null }).where(eq(jobs.status, 'PENDING'));
      await this.deps.db.update(executors).set({ busyJobId: null });
    }
    await this.checkHealth();
    this.healthTimer = setInterval(
      () =>
        void this.checkHealth()
          .catch((err) => this.logError('health check', err))
          .then(() => this.wake()),
      HEALTH_EVERY_MS,
    );
    this.healthTimer.unref();
    this.timer = setInterval(() => this.wake(), 1000);
    this.timer.unref();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    await Promise.allSettled([...this.inflight]);
  }

  created(rows: JobRow[]): void {
    const parent = requestSpanContext();
    for (const r of rows) {
      this.deps.notify(r.ownerId, 'job', { id: r.id, status: r.status });
      const cached = r.status === 'CACHED';
      this.deps.metrics?.cacheRequests.labels('job_result', cached ? 'hit' : 'miss').inc();
      this.logger.info(
        { jobId: r.id, userId: r.ownerId, modelId: r.modelId, modelVersion: r.modelVersion, status: r.status },
        cached ? 'job answered from the result cache' : 'job queued',
      );
      if (parent && !cached) {
        if (this.traceParents.size >= 10_000) this.traceParents.delete(this.traceParents.keys().next().value!);
        this.traceParents.set(r.id, parent);
      }
    }
    this.wake();
  }

  /** Marks a launcher reachable now (e.g. after a successful test connection). */
  markHealthy(executorId: string): void {
    this.healthy.set(executorId, Date.now());
    this.wake();
  }

  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err) => this.deps.log?.(`dispatcher: ${err instanceof Error ? err.message : err}`))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async freeExecutors(): Promise<ExecutorRow[]> {
    const rows = await this.deps.db
      .select({ e: executors, ip: nodes.ip, status: nodes.status })
      .from(executors)
      .innerJoin(nodes, eq(nodes.id, executors.nodeId))
      .where(and(eq(executors.isEnabled, true), eq(executors.isUpdating, false)));
    const now = Date.now();
    return rows
      .filter((r) => r.status !== 'OFFLINE' && this.freeSlots(r.e.id) > 0 && now - (this.healthy.get(r.e.id) ?? 0) < HEALTHY_FOR_MS)
      .map((r) => ({ ...r.e, ip: r.ip }));
  }

  private freeSlots(executorId: string): number {
    return (this.slots.get(executorId) ?? 1) - (this.running.get(executorId) ?? 0);
  }

  private async tick(): Promise<void> {
    await this.expireLeases();
    for (const executor of await this.freeExecutors()) {
      const modelNames = executor.reportedModels.map((m) => m.name);
      if (!modelNames.length) continue;
      // Fill every free slot of the launcher (one job per worker thread), oldest jobs first.
      while (this.freeSlots(executor.id) > 0 && !this.stopped) {
        const job = await this.claim(executor.id, modelNames);
        if (!job) break;
        this.running.set(executor.id, (this.running.get(executor.id) ?? 0) + 1);
        const p = this.run(job, executor).finally(() => {
          this.running.set(executor.id, (this.running.get(executor.id) ?? 1) - 1);
          this.inflight.delete(p);
          this.wake();
        });
        this.inflight.add(p);
      }
    }
  }

  private async claim(executorId: string, modelNames: string[]): Promise<JobRow | null> {
    const supported = this.deps.db.select({ id: computeModels.id }).from(computeModels).where(inArray(computeModels.internalName, modelNames));
    const next = this.deps.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.status, 'NEW'), inArray(jobs.modelId, supported)))
      .orderBy(jobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    const [row] = await this.deps.db
      .update(jobs)
      .set({
        status: 'PENDING',
        executorId,
        startedAt: sql`now()`,
        leaseUntil: new Date(Date.now() + this.leaseMs),
        heartbeatAt: null,
        attempts: sql`${jobs.attempts} + 1`,
        progress: 0,
      })
      .where(inArray(jobs.id, next))
      .returning();
    if (row) {
      await this.deps.db.update(executors).set({ busyJobId: row.id }).where(eq(executors.id, executorId));
      await this.attempt(() => startAttempt(this.deps.db, row.id, row.attempts, executorId));
      this.deps.notify(row.ownerId, 'job', { id: row.id, status: row.status });
      this.logger.info(
        { jobId: row.id, userId: row.ownerId, launcherId: executorId, modelVersion: row.modelVersion, attempt: row.attempts },
        'job claimed',
      );
    }
    return row ?? null;
  }

  /** Runs a claimed job; never rejects (every error is logged). */
  private async run(job: JobRow, executor: ExecutorRow): Promise<void> {
    const log = this.logger.child({
      jobId: job.id,
      userId: job.ownerId,
      launcherId: executor.id,
      modelVersion: job.modelVersion,
      attempt: job.attempts,
    });
    const parent = this.traceParents.get(job.id) ?? null;
    this.traceParents.delete(job.id);
    try {
      await inSpan(
        'job.dispatch',
        { 'lamella.job_id': job.id, 'lamella.launcher_id': executor.id, 'lamella.model_version': job.modelVersion, 'lamella.attempt': job.attempts },
        () => this.runOnce(job, executor, log),
        parent,
      );
    } catch (err) {
      this.logError(`job ${job.id}`, err);
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'job run failed unexpectedly');
    }
  }

  /** The running job's row, fenced: only while it is still PENDING under this claim (same attempt). */
  private mine(job: JobRow) {
    return and(eq(jobs.id, job.id), eq(jobs.status, 'PENDING'), eq(jobs.attempts, job.attempts));
  }

  private async runOnce(job: JobRow, executor: ExecutorRow, baseLog: Log = this.logger): Promise<void> {
    let log = baseLog;
    let modelName = 'unknown';
    const { db, storage } = this.deps;
    const leaseMs = this.leaseMs;
    const abort = new AbortController();
    /** Last line from the launcher (the request's start counts as one). */
    let lastBeat = Date.now();
    let progress: number | undefined;
    let started = false;
    let dirty = false;
    let writing: Promise<void> | null = null;
    /** Renews the lease and records the heartbeat; one write at a time, coalescing what comes meanwhile. */
    const persist = () => {
      dirty = true;
      if (writing || abort.signal.aborted) return;
      const write = async () => {
        while (dirty && !abort.signal.aborted) {
          dirty = false;
          const set: Partial<typeof jobs.$inferInsert> = { leaseUntil: new Date(Date.now() + leaseMs), heartbeatAt: new Date(lastBeat) };
          if (progress !== undefined) set.progress = progress;
          if (started) {
            set.startedAt = new Date(lastBeat);
            started = false;
          }
          try {
            const rows = await db.update(jobs).set(set).where(this.mine(job)).returning({ id: jobs.id });
            if (!rows.length) abort.abort(new LauncherUnavailable('the job lease was lost (the job was given to another dispatcher)'));
          } catch (err) {
            this.logError(`lease of job ${job.id}`, err);
          }
        }
      };
      writing = write().finally(() => (writing = null));
    };
    // Watchdog: every third of the lease, renew it while the launcher answers; abort when it went silent.
    const watchdog = setInterval(() => {
      if (Date.now() - lastBeat <= leaseMs) {
        log.info({ progress, lastHeartbeatMsAgo: Date.now() - lastBeat }, 'heartbeat: launcher answers, lease renewed');
        return persist();
      }
      // A busy event loop runs timers before pending I/O: look again once the waiting lines are read.
      setImmediate(() => {
        const silent = Date.now() - lastBeat;
        if (silent <= leaseMs) return persist();
        abort.abort(new LauncherUnavailable(`launcher not responding (no heartbeat for ${Math.round(silent / 100) / 10} s)`));
      });
    }, leaseMs / 3);
    const claimedAt = Date.now();
    let startedLineAt = 0;
    // The result's files are streamed into storage under the result's id as they arrive (not held in memory);
    // a run that ends without storing its result removes them again.
    const resultId = randomUUID();
    const files: Record<string, string> = {};
    let kept = false;
    try {
      const [image] = await db.select().from(images).where(eq(images.id, job.imageId));
      const [model] = await db.select().from(computeModels).where(eq(computeModels.id, job.modelId));
      const [owner] = await db.select({ language: users.language }).from(users).where(eq(users.id, job.ownerId));
      const mask = job.maskId ? (await db.select().from(masks).where(eq(masks.id, job.maskId)))[0] : undefined;
      // the recipe version the job names (issue 22); a recipe deleted since runs the job without it
      const recipe = job.recipeId && job.recipeVersion ? await recipeRun(db, job.recipeId, job.recipeVersion) : null;
      modelName = model.internalName;
      log = log.child({ model: modelName });
      this.deps.metrics?.queueWait.labels(modelName).observe(Math.max(0, claimedAt - job.createdAt.getTime()) / 1000);
      const [imageBytes, maskBytes, sidecar] = await Promise.all([
        storage.get(image.filename),
        mask ? storage.get(mask.storageKey) : Promise.resolve(null),
        readSidecar(storage, image.filename),
      ]);
      // a trained version (issue 25): the launcher fetches its network once, by sha256, from this signed address
      const trained = this.deps.networks ? await networkOf(db, job.modelId, job.modelVersion) : null;
      const network =
        trained && this.deps.networks
          ? {
              sha256: trained.sha256,
              url: `${this.deps.networks.serverUrl(executor.ip)}${networkPath(trained.sha256, this.deps.networks.secret)}`,
            }
          : null;
      lastBeat = Date.now();
      log.info({ launcherUrl: `http://${executor.ip}:${executor.port}` }, 'job sent to launcher');
      const out = await inSpan('launcher.request', { 'lamella.job_id': job.id, 'lamella.launcher_id': executor.id }, () =>
        runOnLauncher(
          `http://${executor.ip}:${executor.port}`,
          {
            jobId: job.id,
            launcherId: executor.id,
            model: model.internalName,
            version: job.modelVersion,
            settings: job.settings,
            crop: job.crop,
            language: owner?.language ?? 'en',
            // calibration (model 20261123): the user's pixel size of the image; the settings' magnification counts
            // only when a customization chose it (else an image without bar or metadata is measured uncalibrated)
            pixelSizeUm: image.pixelSizeUm ?? null,
            settingsCalibration: job.customizationId !== null,
            // the instrument's sidecar text uploaded with the image (JEOL, Hitachi, TESCAN…), read when its tags have none
            ...(sidecar !== null ? { sidecar } : {}),
            ...(recipe ? { recipe } : {}),
            ...(network ? { network } : {}),
          },
          imageBytes,
          maskBytes,
          {
            timeoutMs: JOB_TIMEOUT_MS,
            signal: abort.signal,
            heartbeatMs: Math.max(100, Math.min(5000, Math.floor(leaseMs / 3))),
            headers: traceHeaders(),
            maxResultBytes: this.maxResultBytes,
            // any bytes are a sign of life: a result of hundreds of MB takes longer than a lease to arrive
            onBytes: () => {
              lastBeat = Date.now();
            },
            onFile: async (filename, source) => {
              const safe = filename.replace(/[^\w.-]/g, '_');
              const key = `results/${resultId}/${safe}`;
              files[safe] = key;
              await storage.putStream(key, source);
            },
            onBeat: (p) => {
              lastBeat = Date.now();
              if (p !== undefined) progress = p;
              log.debug({ progress: p }, 'heartbeat');
              persist();
            },
            // "Started at" is when the launcher took the job: its delay after creation is the queue's overhead.
            onStarted: () => {
              startedLineAt = Date.now();
              started = true;
              log.info({}, 'job started on launcher');
              persist();
            },
          },
        ),
      );
      log.info({ modelMs: out.modelMs, files: out.files.length }, 'result received from launcher');
      const resultAt = Date.now();
      clearInterval(watchdog);
      await writing;
      const stored = await inSpan('job.store_result', { 'lamella.job_id': job.id }, async () => {
        const [resultRow] = await db
          .insert(results)
          .values({
            id: resultId,
            items: out.items,
            measurements: out.measurements,
            files,
            cacheKey: jobCacheKey({
              imageSha256: image.sha256,
              pixelSizeUm: image.pixelSizeUm,
              model: model.internalName,
              version: job.modelVersion,
              settings: job.settings,
              crop: job.crop,
              maskSha256: mask?.storageKey ?? null,
              sidecarOf: sidecar !== null ? image.id : null,
              recipe: recipe ? `${recipe.id}@${recipe.version}` : null,
            }),
          })
          .returning();
        const finished = await this.finish(job, { status: 'FINISHED', resultId: resultRow.id, error: null });
        return { resultRow, finished };
      });
      const { resultRow, finished } = stored;
      kept = finished;
      if (finished) {
        this.deps.metrics?.runTime.labels(modelName, 'FINISHED').observe((Date.now() - claimedAt) / 1000);
        log.info({ resultId: resultRow.id, runMs: Date.now() - claimedAt }, 'result stored; job FINISHED');
      }
      if (finished && this.stageListener) {
        const storedAt = Date.now();
        const took = resultAt - (startedLineAt || claimedAt);
        const modelMs = out.modelMs !== undefined && out.modelMs <= took ? out.modelMs : took;
        this.stageListener({
          jobId: job.id,
          queueMs: claimedAt - job.createdAt.getTime(),
          transferMs: (startedLineAt || claimedAt) - claimedAt + (took - modelMs),
          modelMs,
          storingMs: storedAt - resultAt,
          storedAt,
        });
      }
      if (!finished) {
        // The lease was lost meanwhile: the job belongs to another run now; drop this run's result.
        this.deps.log?.(`job ${job.id}: lease lost before the result was saved; result discarded`);
        this.abandoned('lease_lost');
        log.warn({ cause: 'lease_lost' }, 'attempt abandoned: the lease was lost before the result was saved; result discarded');
        await this.attempt(() => endAttempt(db, job.id, 'ABANDONED', 'lease_lost: the lease was lost before the result was saved'));
        await db.delete(results).where(eq(results.id, resultRow.id));
      }
    } catch (err) {
      clearInterval(watchdog);
      await writing;
      if (err instanceof ModelError) {
        log.warn({ code: err.code, reason: err.message }, 'job FAILED: the model refused the input');
        if (await this.finish(job, { status: 'FAILED', resultId: null, error: `${err.code}: ${err.message}` }))
          this.deps.metrics?.runTime.labels(modelName, 'FAILED').observe((Date.now() - claimedAt) / 1000);
      } else if (err instanceof LauncherBusy) {
        this.abandoned('launcher_busy');
        log.info({ cause: 'launcher_busy' }, 'attempt abandoned: the launcher is busy; job given back to the queue (no attempt lost)');
        // The launcher is full (e.g. still finishing a job it was given before it hung): the job never
        // started there, so the claim is undone without costing an attempt.
        this.healthy.delete(executor.id);
        const [row] = await db
          .update(jobs)
          .set({ status: 'NEW', executorId: null, leaseUntil: null, startedAt: null, progress: null, attempts: sql`${jobs.attempts} - 1` })
          .where(this.mine(job))
          .returning({ id: jobs.id });
        if (row) await this.attempt(() => endAttempt(db, job.id, 'ABANDONED', 'launcher_busy: the launcher was busy; no attempt counted'));
        if (row) this.deps.notify(job.ownerId, 'job', { id: job.id, status: 'NEW' });
      } else {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof LauncherUnavailable) this.healthy.delete(executor.id);
        this.deps.log?.(`job ${job.id} on launcher ${executor.id}: ${message}`);
        const cause = /lease was lost/.test(message)
          ? 'lease_lost'
          : /not responding/.test(message)
            ? 'launcher_not_responding'
            : 'launcher_unreachable';
        this.abandoned(cause);
        log.warn({ cause, reason: message, final: job.attempts >= MAX_ATTEMPTS }, 'attempt abandoned');
        if (job.attempts >= MAX_ATTEMPTS) {
          await this.finish(job, {
            status: 'FAILED',
            resultId: null,
            error: `LAUNCHER_UNAVAILABLE: the job could not be completed after ${job.attempts} attempts (${message})`,
          });
          this.deps.metrics?.runTime.labels(modelName, 'FAILED').observe((Date.now() - claimedAt) / 1000);
          log.error({ attempts: job.attempts }, 'job FAILED: no attempt left');
        } else {
          const [row] = await db
            .update(jobs)
            .set({ status: 'NEW', executorId: null, leaseUntil: null, startedAt: null, progress: null, error: message })
            .where(this.mine(job))
            .returning({ id: jobs.id });
          if (row) await this.attempt(() => endAttempt(db, job.id, 'ABANDONED', `${cause}: ${message}`));
          if (row) this.deps.notify(job.ownerId, 'job', { id: job.id, status: 'NEW' });
          if (row) log.info({}, 'job queued again for another attempt');
        }
      }
    } finally {
      clearInterval(watchdog);
      if (!abort.signal.aborted) abort.abort(new Error('run ended'));
      if (!kept) await Promise.all(Object.values(files).map((key) => storage.delete(key).catch(() => undefined)));
      await db
        .update(executors)
        .set({ busyJobId: null })
        .where(and(eq(executors.id, executor.id), eq(executors.busyJobId, job.id)));
    }
  }

  /** Ends the job if it is still this run's (fenced); false when the lease was lost meanwhile. */
  private async finish(job: JobRow, r: { status: 'FINISHED' | 'FAILED'; resultId: string | null; error: string | null }): Promise<boolean> {
    const now = new Date();
    const [row] = await this.deps.db
      .update(jobs)
      .set({
        status: r.status,
        resultId: r.resultId,
        error: r.error,
        finishedAt: now,
        leaseUntil: null,
        progress: r.status === 'FINISHED' ? 1 : null,
        durationMs: sql`(extract(epoch from (${now.toISOString()}::timestamptz - ${jobs.startedAt})) * 1000)::bigint`,
        waitMs: sql`(extract(epoch from (${jobs.startedAt} - ${jobs.createdAt})) * 1000)::bigint`,
      })
      .where(this.mine(job))
      .returning();
    if (row) await this.attempt(() => endAttempt(this.deps.db, row.id, r.status, r.error));
    if (row?.status === 'FAILED') await recountLicense(this.deps.db, row.ownerId);
    if (row) this.deps.notify(row.ownerId, 'job', { id: row.id, status: row.status });
    if (row) this.deps.jobEnded?.(row);
    return Boolean(row);
  }

  /** PENDING jobs whose dispatcher stopped renewing the lease go back to the queue (or fail after the limit). */
  private async expireLeases(): Promise<void> {
    const now = new Date();
    const failed = await this.deps.db
      .update(jobs)
      .set({ status: 'FAILED', error: 'LAUNCHER_UNAVAILABLE: the job was interrupted too often', finishedAt: now, leaseUntil: null })
      .where(and(eq(jobs.status, 'PENDING'), lt(jobs.leaseUntil, now), sql`${jobs.attempts} >= ${MAX_ATTEMPTS}`))
      .returning({ id: jobs.id, ownerId: jobs.ownerId });
    const requeued = await this.deps.db
      .update(jobs)
      .set({ status: 'NEW', executorId: null, leaseUntil: null, startedAt: null })
      .where(and(eq(jobs.status, 'PENDING'), lt(jobs.leaseUntil, now)))
      .returning({ id: jobs.id, ownerId: jobs.ownerId });
    await this.attempt(() =>
      endAttempt(
        this.deps.db,
        failed.map((j) => j.id),
        'FAILED',
        'lease_expired: its server stopped renewing the lease; LAUNCHER_UNAVAILABLE: the job was interrupted too often',
      ),
    );
    await this.attempt(() =>
      endAttempt(
        this.deps.db,
        requeued.map((j) => j.id),
        'ABANDONED',
        'lease_expired: its server stopped renewing the lease; queued again',
      ),
    );
    for (const [j, final] of [...failed.map((j) => [j, true] as const), ...requeued.map((j) => [j, false] as const)]) {
      this.abandoned('lease_expired');
      this.logger.warn(
        { jobId: j.id, userId: j.ownerId, cause: 'lease_expired', final },
        `attempt abandoned: lease expired (its server stopped); job ${final ? 'FAILED' : 'queued again'}`,
      );
    }
  }

  /** Model versions come from what the launchers report (back-office Models → versions). */
  private async recordVersions(reported: Array<{ name: string; versions: string[] }>): Promise<void> {
    const known = await this.deps.db
      .select({ id: computeModels.id, name: computeModels.internalName })
      .from(computeModels)
      .where(
        inArray(
          computeModels.internalName,
          reported.map((m) => m.name),
        ),
      );
    const values = known.flatMap((k) => (reported.find((m) => m.name === k.name)?.versions ?? []).map((version) => ({ modelId: k.id, version })));
    if (values.length) await this.deps.db.insert(modelVersions).values(values).onConflictDoNothing();
  }

  /** Asks every enabled launcher for its health; records the models it runs and marks its node ONLINE. */
  async checkHealth(): Promise<void> {
    const rows = await this.deps.db
      .select({ e: executors, ip: nodes.ip, nodeId: nodes.id, transition: nodes.transition })
      .from(executors)
      .innerJoin(nodes, eq(nodes.id, executors.nodeId))
      .where(eq(executors.isEnabled, true));
    const nodeUp = new Map<string, boolean>();
    await Promise.all(
      rows.map(async (r) => {
        try {
          const h = await launcherHealth(`http://${r.ip}:${r.e.port}`, 2000);
          if (!this.healthy.has(r.e.id)) this.logger.info({ launcherId: r.e.id, version: h.version, slots: h.slots }, 'launcher healthy');
          this.healthy.set(r.e.id, Date.now());
          this.slots.set(r.e.id, Number.isInteger(h.slots) && h.slots! > 0 ? h.slots! : 1);
          nodeUp.set(r.nodeId, true);
          await this.deps.db.update(executors).set({ lastSeenAt: new Date(), reportedModels: h.models }).where(eq(executors.id, r.e.id));
          if (JSON.stringify(h.models) !== JSON.stringify(r.e.reportedModels)) await this.recordVersions(h.models);
        } catch (err) {
          if (this.healthy.has(r.e.id))
            this.logger.warn({ launcherId: r.e.id, reason: err instanceof Error ? err.message : String(err) }, 'launcher health check failed');
          this.healthy.delete(r.e.id);
          if (!nodeUp.has(r.nodeId)) nodeUp.set(r.nodeId, false);
        }
      }),
    );
    for (const [nodeId, up] of nodeUp) {
      await this.deps.db
        .update(nodes)
        .set({ status: up ? 'ONLINE' : 'OFFLINE' })
        .where(and(eq(nodes.id, nodeId), isNull(nodes.transition)));
    }
    // An on-premise server whose launchers were all deleted has nothing left to check: it is Unknown, not Offline,
    // else "Add Launcher" (disabled while OFFLINE, §4) could never be used on it again. Cloud servers keep OFFLINE
    // (their machine is stopped).
    await this.deps.db
      .update(nodes)
      .set({ status: 'UNKNOWN' })
      .where(
        and(
          eq(nodes.status, 'OFFLINE'),
          eq(nodes.nodeType, 'ON_PREMISE'),
          isNull(nodes.transition),
          sql`not exists (select 1 from ${executors} where ${executors.nodeId} = ${nodes.id})`,
        ),
      );
  }
}

/** The sidecar text stored beside an image's original (images/service.ts), or null when it has none. */
export async function readSidecar(storage: Storage, originalKey: string): Promise<string | null> {
  const key = sidecarKey(originalKey);
  if (!(await storage.exists(key))) return null;
  return (await storage.get(key)).toString('latin1');
}
