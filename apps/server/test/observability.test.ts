/**
 * Issue 29, operable in production: a job's story in the JSON logs of server, dispatcher and launcher (one grep
 * of its id), the Prometheus metrics behind METRICS_TOKEN, a job's trace across the HTTP request, the dispatch,
 * the launcher's run and the result storage (InMemorySpanExporter), and liveness/readiness.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { computeModels, executors, jobs, nodes } from '../src/platform/db/schema/index.ts';
import { initTracing } from '../src/platform/observability/tracing.ts';
import { startLauncher } from '../../launcher/src/server.ts';
import { createLogger } from '../../launcher/src/telemetry.ts';
import type { Engine } from '../../launcher/src/engine.ts';
import { startTestApp, waitFor, type TestApp } from './test-app.ts';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const spans = new InMemorySpanExporter();
// before the app: its request spans and the dispatcher's spans go to the in-memory exporter
const provider = initTracing({ serviceName: 'lamella-test', exporter: spans });

/** Every JSON line of the server (and dispatcher) and of the launcher, parsed. */
const lines: Array<Record<string, unknown>> = [];
const stream = {
  write: (chunk: string) =>
    void lines.push(
      ...chunk
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l)),
    ),
};

/** An engine that takes 1.5 s per job (several heartbeats at a 3 s lease), so a job's story has every step. */
const engine: Engine = {
  slots: 1,
  models: () => [{ name: 'porosity', versions: ['20241025'] }],
  run: async () => {
    await new Promise((r) => setTimeout(r, 1500));
    return { items: [], measurements: { porosity: 0.1 }, files: [{ filename: 'overlay.png', data: Buffer.from('png') }] };
  },
  close: async () => undefined,
};

let t: TestApp;
let launcher: Awaited<ReturnType<typeof startLauncher>>;
let launcherId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { METRICS_TOKEN, LOG_LEVEL: 'debug', JOB_LEASE_SECONDS: '3' }, logStream: stream });
  launcher = await startLauncher({ port: 0, version: 'test', engine, logger: createLogger('debug', stream) });
  const [node] = await t.db.insert(nodes).values({ name: 'obs', ip: '127.0.0.1', description: 'in-process launcher' }).returning();
  [{ id: launcherId }] = await t.db.insert(executors).values({ nodeId: node.id, port: launcher.port, version: 'test' }).returning();
  await t.app.ctx.dispatcher.checkHealth();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await launcher?.close();
  if (breaking.listening) breaking.close();
  await provider?.shutdown();
});

/** A launcher that takes a job and breaks the connection off after its `started` line. */
const breaking = createServer((req, res) => {
  if (req.url === '/health') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status: 'ok', version: 'broken', models: [{ name: 'porosity', versions: ['20241025'] }], busy: false, slots: 1 }));
    return;
  }
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(JSON.stringify({ type: 'started' }) + '\n');
    setTimeout(() => res.destroy(), 100);
  });
});

async function runJob() {
  const u = await t.signupVerified();
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 20, b: 30 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('files', new Blob([png]), 'obs.png');
  const [image] = (await u.client.request('POST', '/api/images', { form })).body as Array<{ id: string }>;
  const [model] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'porosity'));
  const res = await u.client.post('/api/jobs', { imageIds: [image.id], modelIds: [model.id] });
  expect(res.status).toBe(200);
  const jobId = (res.body as Array<{ id: string }>)[0].id;
  t.app.ctx.dispatcher.wake();
  const row = await waitFor(async () => {
    const [r] = await t.db.select().from(jobs).where(eq(jobs.id, jobId));
    return r.status === 'FINISHED' && r;
  }, 30_000);
  return { jobId, userId: u.id, modelVersion: row.modelVersion, requestId: res.headers.get('x-request-id') };
}

describe('observability', () => {
  let job: Awaited<ReturnType<typeof runJob>>;
  beforeAll(async () => {
    job = await runJob();
    // the launcher's last line and the finish are written right after the status changes
    await new Promise((r) => setTimeout(r, 200));
  }, 60_000);

  it("tells a job's story in JSON lines that all carry its id: queued, claimed, started on the launcher, heartbeats, result stored", () => {
    const story = lines.filter((l) => JSON.stringify(l).includes(job.jobId));
    const messages = story.map((l) => String(l.msg));
    for (const step of [
      'job queued',
      'job claimed',
      'job sent to launcher',
      'job started on launcher',
      'heartbeat',
      'result received from launcher',
      'result stored; job FINISHED',
    ])
      expect(messages, step).toContain(step);
    // the launcher's own lines: started, heartbeats, finished — naming the job, the launcher and the model version
    const own = story.filter((l) => l.service === 'launcher');
    expect(own.map((l) => l.msg)).toEqual(expect.arrayContaining(['job started', 'heartbeat', 'job finished; result sent']));
    for (const l of own) expect(l).toMatchObject({ jobId: job.jobId, launcherId, model: 'porosity', modelVersion: job.modelVersion });
    // every line of the story has the job id as a field (not only in its text), and the dispatcher's name the user
    for (const l of story) expect(l.jobId).toBe(job.jobId);
    for (const l of story.filter((l) => l.component === 'dispatcher')) expect(l.userId).toBe(job.userId);
    expect(story.find((l) => l.msg === 'job claimed')).toMatchObject({ launcherId, modelVersion: job.modelVersion, attempt: 1 });
    // the request that queued it is one grep away too: its id is answered in x-request-id and on its lines
    expect(job.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // no secrets or personal data: no line carries the session cookie, a password or an e-mail address
    const all = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(all).not.toMatch(/lamella_session=|Correct-Horse|@example\.com/);
  });

  it('answers the metrics to the bearer of METRICS_TOKEN only', async () => {
    const anonymous = await fetch(`${t.baseUrl}/api/metrics`);
    expect(anonymous.status).toBe(401);
    const wrong = await fetch(`${t.baseUrl}/api/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    expect(wrong.status).toBe(401);
    const res = await fetch(`${t.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    for (const name of [
      'lamella_http_request_duration_seconds_bucket',
      'lamella_jobs',
      'lamella_job_queue_wait_seconds_bucket',
      'lamella_job_run_seconds_bucket',
      'lamella_job_attempts_abandoned_total',
      'lamella_launcher_healthy',
      'lamella_launcher_slots',
      'lamella_launcher_slots_busy',
      'lamella_cache_requests_total',
      'lamella_db_pool_connections',
      'lamella_nodejs_eventloop_lag_seconds',
      'lamella_process_resident_memory_bytes',
    ])
      expect(text, name).toContain(name);
    expect(text).toMatch(/lamella_http_request_duration_seconds_count\{method="POST",route="\/api\/jobs",status_code="200"\} [1-9]/);
    expect(text).toMatch(/lamella_jobs\{status="FINISHED",model="porosity"\} 1/);
    expect(text).toMatch(/lamella_job_run_seconds_count\{model="porosity",outcome="FINISHED"\} 1/);
    expect(text).toContain(`lamella_launcher_healthy{launcher="${launcherId}"} 1`);
    expect(text).toContain(`lamella_launcher_slots{launcher="${launcherId}"} 1`);
    expect(text).toMatch(/lamella_cache_requests_total\{cache="job_result",result="miss"\} 1/);
  });

  it("traces a job from its HTTP request through the dispatch and the launcher's run to the result storage", async () => {
    await provider!.forceFlush();
    const finished = spans.getFinishedSpans();
    const request = finished.find((s) => s.name === 'POST /api/jobs');
    expect(request).toBeDefined();
    const traceId = request!.spanContext().traceId;
    const inTrace = finished.filter((s) => s.spanContext().traceId === traceId);
    const names = inTrace.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['POST /api/jobs', 'job.dispatch', 'launcher.request', 'launcher.run', 'job.store_result']));
    const byName = (n: string) => inTrace.find((s) => s.name === n)!;
    const parentOf = (n: string) => byName(n).parentSpanContext?.spanId;
    expect(parentOf('job.dispatch')).toBe(request!.spanContext().spanId);
    expect(parentOf('launcher.request')).toBe(byName('job.dispatch').spanContext().spanId);
    // the launcher continued the trace from the traceparent header of POST /run
    expect(parentOf('launcher.run')).toBe(byName('launcher.request').spanContext().spanId);
    expect(parentOf('job.store_result')).toBe(byName('job.dispatch').spanContext().spanId);
    expect(byName('job.dispatch').attributes['lamella.job_id']).toBe(job.jobId);
  });

  it('tells why an attempt was abandoned, and the job goes on to its result', async () => {
    await new Promise<void>((r) => breaking.listen(0, '127.0.0.1', () => r()));
    const [node] = await t.db.select().from(nodes).where(eq(nodes.name, 'obs'));
    const [bad] = await t.db
      .insert(executors)
      .values({ nodeId: node.id, port: (breaking.address() as { port: number }).port, version: 'broken' })
      .returning();
    await t.db.update(executors).set({ isEnabled: false }).where(eq(executors.id, launcherId));
    await t.app.ctx.dispatcher.checkHealth();
    const u = await t.signupVerified();
    const png = await sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 5, g: 90, b: 30 } } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([png]), 'broken.png');
    const [image] = (await u.client.request('POST', '/api/images', { form })).body as Array<{ id: string }>;
    const [model] = await t.db.select().from(computeModels).where(eq(computeModels.internalName, 'porosity'));
    const jobId = ((await u.client.post('/api/jobs', { imageIds: [image.id], modelIds: [model.id] })).body as Array<{ id: string }>)[0].id;
    t.app.ctx.dispatcher.wake();
    const abandoned = await waitFor(async () => lines.find((l) => l.jobId === jobId && l.msg === 'attempt abandoned'), 30_000);
    expect(abandoned).toMatchObject({ jobId, userId: u.id, launcherId: bad.id, cause: 'launcher_unreachable', attempt: 1, final: false });
    // the good launcher takes the second attempt
    await t.db.update(executors).set({ isEnabled: false }).where(eq(executors.id, bad.id));
    await t.db.update(executors).set({ isEnabled: true }).where(eq(executors.id, launcherId));
    expect(String(abandoned.reason)).toBeTruthy();
    await waitFor(async () => lines.find((l) => l.jobId === jobId && l.msg === 'job queued again for another attempt'), 10_000);
    await t.app.ctx.dispatcher.checkHealth();
    t.app.ctx.dispatcher.wake();
    await waitFor(async () => lines.find((l) => l.jobId === jobId && l.msg === 'result stored; job FINISHED'), 30_000);
    expect(lines.find((l) => l.jobId === jobId && l.msg === 'job claimed' && l.attempt === 2)).toMatchObject({ launcherId });
    const metrics = await (await fetch(`${t.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(metrics).toMatch(/lamella_job_attempts_abandoned_total\{cause="launcher_unreachable"\} 1/);
  });

  it('answers liveness and readiness, naming each condition', async () => {
    const live = await fetch(`${t.baseUrl}/api/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${t.baseUrl}/api/health/ready`);
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean; detail?: string }> };
    expect(ready.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({
      status: 'ready',
      checks: { database: { ok: true }, migrations: { ok: true }, storage: { ok: true }, launchers: { ok: true } },
    });
    // the spec's health answer is unchanged
    expect((await fetch(`${t.baseUrl}/api/health`)).status).toBe(200);
  });

  it('is not ready when the database is stopped (and still live)', async () => {
    await t.app.ctx.dispatcher.stop();
    await t.database.close();
    t.database.close = async () => undefined; // stopped already (afterAll closes the app)
    const ready = await fetch(`${t.baseUrl}/api/health/ready`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean; detail?: string }> };
    expect(body.status).toBe('not_ready');
    expect(body.checks.database.ok).toBe(false);
    expect(body.checks.database.detail).toBeTruthy();
    expect(body.checks.storage.ok).toBe(true);
    expect((await fetch(`${t.baseUrl}/api/health/live`)).status).toBe(200);
  });
});
