import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The server's Prometheus metrics (prom-client), one registry per app (tests build several in one process),
 * answered at `GET /api/metrics` to a caller with `Authorization: Bearer $METRICS_TOKEN`. README lists them.
 * Gauges that describe state elsewhere (jobs by status, launchers, the database pool) are read when scraped,
 * through the collectors the app registers (`onCollect`).
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly collectors: Array<() => Promise<void> | void> = [];

  readonly httpDuration = new Histogram({
    name: 'lamella_http_request_duration_seconds',
    help: 'HTTP request latency by method, route (the pattern, not the URL) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly jobs = new Gauge({
    name: 'lamella_jobs',
    help: 'Jobs by status and model (read from the database when scraped)',
    labelNames: ['status', 'model'] as const,
    registers: [this.registry],
  });
  readonly queueWait = new Histogram({
    name: 'lamella_job_queue_wait_seconds',
    help: 'Time from a job being queued to a dispatcher claiming it, by model',
    labelNames: ['model'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly runTime = new Histogram({
    name: 'lamella_job_run_seconds',
    help: 'Time from a claim to the job ending (result stored or failed), by model and outcome',
    labelNames: ['model', 'outcome'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [this.registry],
  });
  readonly attemptsAbandoned = new Counter({
    name: 'lamella_job_attempts_abandoned_total',
    help: 'Job attempts given up by cause (launcher_unreachable, launcher_not_responding, launcher_busy, lease_lost, lease_expired)',
    labelNames: ['cause'] as const,
    registers: [this.registry],
  });
  readonly launcherHealthy = new Gauge({
    name: 'lamella_launcher_healthy',
    help: '1 when the launcher answered its health check in the last 15 s, else 0',
    labelNames: ['launcher'] as const,
    registers: [this.registry],
  });
  readonly launcherSlots = new Gauge({
    name: 'lamella_launcher_slots',
    help: 'Jobs a launcher runs at once (its worker threads)',
    labelNames: ['launcher'] as const,
    registers: [this.registry],
  });
  readonly launcherBusySlots = new Gauge({
    name: 'lamella_launcher_slots_busy',
    help: 'Slots of a launcher taken by jobs this server runs there',
    labelNames: ['launcher'] as const,
    registers: [this.registry],
  });
  readonly cacheRequests = new Counter({
    name: 'lamella_cache_requests_total',
    help: 'Cache look-ups by cache (session, job_list, admin_job_list, job_result) and result (hit, miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
  });
  readonly collectErrors = new Gauge({
    name: 'lamella_scrape_collect_errors',
    help: 'State collectors that failed during this scrape (e.g. the database unreachable)',
    registers: [this.registry],
  });
  readonly dbPool = new Gauge({
    name: 'lamella_db_pool_connections',
    help: 'Database connections by state (total, idle, waiting: queries waiting for a connection); PGlite is one connection',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  constructor() {
    // process_resident_memory_bytes, nodejs_eventloop_lag_seconds (and its percentiles), heap, GC, handles
    collectDefaultMetrics({ register: this.registry, prefix: 'lamella_', eventLoopMonitoringPrecision: 20 });
  }

  /** Registers a function that updates state gauges before each scrape. */
  onCollect(fn: () => Promise<void> | void): void {
    this.collectors.push(fn);
  }

  /** The Prometheus text exposition of every metric. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const failed = (await Promise.allSettled(this.collectors.map(async (fn) => fn()))).filter((r) => r.status === 'rejected').length;
    this.collectErrors.set(failed);
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** A cache's hit/miss counter, for code that should not know about Prometheus (ChangeCache, the guard). */
export type CacheMeter = (hit: boolean) => void;

export function cacheMeter(metrics: Metrics | null, cache: string): CacheMeter {
  if (!metrics) return () => undefined;
  const hit = metrics.cacheRequests.labels(cache, 'hit');
  const miss = metrics.cacheRequests.labels(cache, 'miss');
  return (h) => (h ? hit : miss).inc();
}
