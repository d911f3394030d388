import { and, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import type { Storage } from '../../platform/storage/storage.ts';
import { computeModels, executors, images, jobs, masks, modelVersions, nodes, results, users } from '../../platform/db/schema/index.ts';
import { jobCacheKey } from './cache-key.ts';
import { LauncherUnavailable, ModelError, launcherHealth, runOnLauncher } from './launcher-client.ts';
import type { JobRow } from './present.ts';

export const MAX_ATTEMPTS = 3;
const LEASE_MS = 30_000;
const HEALTH_EVERY_MS = 5_000;
const HEALTHY_FOR_MS = 15_000;
const JOB_TIMEOUT_MS = 10 * 60_000;

export interface JobEvents {
  created(rows: JobRow[]): void;
}

type ExecutorRow = typeof executors.$inferSelect & { ip: string };

/**
 * Hands NEW jobs to free launchers. The jobs table is the queue: a job is claimed with
 * `FOR UPDATE SKIP LOCKED`, so several server replicas never take the same job; a PENDING job carries a
 * lease that its dispatcher renews, and an expired lease (a server that died) puts the job back to NEW.
 * A launcher that cannot be reached costs an attempt; after MAX_ATTEMPTS the job is FAILED with the error
 * kept. A model that fails on its input fails the job at once.
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

  constructor(
    private readonly deps: {
      db: Db;
      storage: Storage;
      notify: (userId: string, event: string, payload: unknown) => void;
      log?: (msg: string) => void;
      /** Embedded database: this process is the only dispatcher, so PENDING jobs at start are orphans. */
      soleDispatcher: boolean;
    },
  ) {}

  async start(): Promise<void> {
    if (this.deps.soleDispatcher) {
      await this.deps.db.update(jobs).set({ status: 'NEW', executorId: null, leaseUntil: null, progress: null }).where(eq(jobs.status, 'PENDING'));
      await this.deps.db.update(executors).set({ busyJobId: null });
    }
    await this.checkHealth();
    this.healthTimer = setInterval(() => void this.checkHealth().then(() => this.wake()), HEALTH_EVERY_MS);
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
    for (const r of rows) this.deps.notify(r.ownerId, 'job', { id: r.id, status: r.status });
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
        leaseUntil: new Date(Date.now() + LEASE_MS),
        attempts: sql`${jobs.attempts} + 1`,
        progress: 0,
      })
      .where(inArray(jobs.id, next))
      .returning();
    if (row) {
      await this.deps.db.update(executors).set({ busyJobId: row.id }).where(eq(executors.id, executorId));
      this.deps.notify(row.ownerId, 'job', { id: row.id, status: row.status });
    }
    return row ?? null;
  }

  private async run(job: JobRow, executor: ExecutorRow): Promise<void> {
    const { db, storage } = this.deps;
    const lease = setInterval(() => {
      void db
        .update(jobs)
        .set({ leaseUntil: new Date(Date.now() + LEASE_MS) })
        .where(and(eq(jobs.id, job.id), eq(jobs.status, 'PENDING')));
    }, LEASE_MS / 3);
    try {
      const [image] = await db.select().from(images).where(eq(images.id, job.imageId));
      const [model] = await db.select().from(computeModels).where(eq(computeModels.id, job.modelId));
      const [owner] = await db.select({ language: users.language }).from(users).where(eq(users.id, job.ownerId));
      const mask = job.maskId ? (await db.select().from(masks).where(eq(masks.id, job.maskId)))[0] : undefined;
      const [imageBytes, maskBytes] = await Promise.all([storage.get(image.filename), mask ? storage.get(mask.storageKey) : Promise.resolve(null)]);
      const out = await runOnLauncher(
        `http://${executor.ip}:${executor.port}`,
        {
          jobId: job.id,
          model: model.internalName,
          version: job.modelVersion,
          settings: job.settings,
          crop: job.crop,
          language: owner?.language ?? 'en',
        },
        imageBytes,
        maskBytes,
        {
          timeoutMs: JOB_TIMEOUT_MS,
          // "Started at" is when the launcher took the job: its delay after creation is the queue's overhead.
          onStarted: () => void db.update(jobs).set({ startedAt: new Date() }).where(eq(jobs.id, job.id)),
        },
      );
      const [resultRow] = await db
        .insert(results)
        .values({
          items: out.items,
          measurements: out.measurements,
          files: {},
          cacheKey: jobCacheKey({
            imageSha256: image.sha256,
            model: model.internalName,
            version: job.modelVersion,
            settings: job.settings,
            crop: job.crop,
            maskSha256: mask?.storageKey ?? null,
          }),
        })
        .returning();
      const files: Record<string, string> = {};
      for (const f of out.files) {
        const safe = f.filename.replace(/[^\w.-]/g, '_');
        const key = `results/${resultRow.id}/${safe}`;
        await storage.put(key, f.data);
        files[safe] = key;
      }
      await db.update(results).set({ files }).where(eq(results.id, resultRow.id));
      await this.finish(job, { status: 'FINISHED', resultId: resultRow.id, error: null });
    } catch (err) {
      if (err instanceof ModelError) {
        await this.finish(job, { status: 'FAILED', resultId: null, error: `${err.code}: ${err.message}` });
      } else {
        const message = err instanceof Error ? err.message : String(err);
        if (err instanceof LauncherUnavailable) this.healthy.delete(executor.id);
        this.deps.log?.(`job ${job.id} on launcher ${executor.id}: ${message}`);
        if (job.attempts >= MAX_ATTEMPTS) {
          await this.finish(job, {
            status: 'FAILED',
            resultId: null,
            error: `LAUNCHER_UNAVAILABLE: the job could not be completed after ${job.attempts} attempts (${message})`,
          });
        } else {
          await db
            .update(jobs)
            .set({ status: 'NEW', executorId: null, leaseUntil: null, startedAt: null, progress: null, error: message })
            .where(eq(jobs.id, job.id));
          this.deps.notify(job.ownerId, 'job', { id: job.id, status: 'NEW' });
        }
      }
    } finally {
      clearInterval(lease);
      await db
        .update(executors)
        .set({ busyJobId: null })
        .where(and(eq(executors.id, executor.id), eq(executors.busyJobId, job.id)));
    }
  }

  private async finish(job: JobRow, r: { status: 'FINISHED' | 'FAILED'; resultId: string | null; error: string | null }): Promise<void> {
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
      .where(eq(jobs.id, job.id))
      .returning();
    if (row) this.deps.notify(row.ownerId, 'job', { id: row.id, status: row.status });
  }

  /** PENDING jobs whose dispatcher stopped renewing the lease go back to the queue (or fail after the limit). */
  private async expireLeases(): Promise<void> {
    const now = new Date();
    await this.deps.db
      .update(jobs)
      .set({ status: 'FAILED', error: 'LAUNCHER_UNAVAILABLE: the job was interrupted too often', finishedAt: now, leaseUntil: null })
      .where(and(eq(jobs.status, 'PENDING'), lt(jobs.leaseUntil, now), sql`${jobs.attempts} >= ${MAX_ATTEMPTS}`));
    await this.deps.db
      .update(jobs)
      .set({ status: 'NEW', executorId: null, leaseUntil: null, startedAt: null })
      .where(and(eq(jobs.status, 'PENDING'), lt(jobs.leaseUntil, now)));
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
          this.healthy.set(r.e.id, Date.now());
          this.slots.set(r.e.id, Number.isInteger(h.slots) && h.slots! > 0 ? h.slots! : 1);
          nodeUp.set(r.nodeId, true);
          await this.deps.db.update(executors).set({ lastSeenAt: new Date(), reportedModels: h.models }).where(eq(executors.id, r.e.id));
          if (JSON.stringify(h.models) !== JSON.stringify(r.e.reportedModels)) await this.recordVersions(h.models);
        } catch {
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
