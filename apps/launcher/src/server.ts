import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import Fastify from 'fastify';
import multipart from '@fastify/multipart';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Engine } from './engine.ts';
import { createLogger } from './telemetry.ts';
import { displayOverlays } from './overlays.ts';

export interface LauncherOptions {
  port: number;
  host?: string;
  version: string;
  engine: Engine;
  /** Jobs run at the same time (default: the engine's worker threads); further requests answer 503 BUSY. */
  slots?: number;
  /** JSON log lines (default: pino on stdout at `LOG_LEVEL`). */
  logger?: Logger;
}

export const DEFAULT_HEARTBEAT_MS = 2000;

/** The heartbeat period the dispatcher asked for, kept between 100 ms and 5 s. */
export function heartbeatPeriod(asked: unknown): number {
  const ms = typeof asked === 'number' && Number.isFinite(asked) ? asked : DEFAULT_HEARTBEAT_MS;
  return Math.min(5000, Math.max(100, Math.round(ms)));
}

/**
 * The launcher (executor) HTTP service:
 * - GET /health → {status, version, models, busy, running, slots}
 * - POST /run, multipart: `job` (JSON {jobId, model, version, settings, crop, language, heartbeatMs?}),
 *   `image`, optional `mask` → NDJSON lines: {type:'started'}, {type:'heartbeat'} every `heartbeatMs`
 *   (default 2 s, 100 ms to 5 s) while the analysis runs, then the result or {type:'error', code, message}.
 *   The result: with `resultFiles: 'binary'` in the job (servers from 2026-11-26 on), each file as a line
 *   {type:'file', filename, bytes} followed by exactly `bytes` raw bytes, then {type:'result', items,
 *   measurements, modelMs}; else one line {type:'result', items, measurements, files:[{filename, data
 *   (base64)}]}. Overlays (the files of `image` items) are sent at display resolution (overlays.ts). The heartbeats tell the dispatcher
 *   the launcher still answers: without one for a whole job lease it gives the job to another launcher.
 * - POST /update {version} → records the version it was asked to run (the local launcher runs this checkout).
 */
export async function startLauncher(opts: LauncherOptions) {
  const log = opts.logger ?? createLogger();
  const tracer = trace.getTracer('lamella-launcher');
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  await app.register(multipart, { limits: { fileSize: 512 * 1024 * 1024, files: 2, fieldSize: 16 * 1024 * 1024 } });
  const slots = opts.slots ?? opts.engine.slots;
  let running = 0;
  let version = opts.version;

  app.get('/health', async () => ({ status: 'ok', version, models: opts.engine.models(), busy: running >= slots, running, slots }));

  app.post('/update', async (request) => {
    const body = request.body as { version?: unknown };
    if (typeof body?.version === 'string' && body.version.trim()) version = body.version.trim();
    log.info({ version }, 'version updated');
    return { status: 'ok', version };
  });

  app.post('/run', async (request, reply) => {
    if (running >= slots) {
      log.info({ running, slots }, 'job refused: all slots busy');
      return reply.status(503).send({ code: 'BUSY', message: 'The launcher is busy.' });
    }
    running += 1;
    // the dispatcher's trace continues here (W3C traceparent header)
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan('launcher.run', { kind: SpanKind.SERVER }, parent);
    try {
      let job: Record<string, unknown> | null = null;
      let image: Buffer | null = null;
      let mask: Buffer | null = null;
      for await (const part of request.parts()) {
        if (part.type === 'field' && part.fieldname === 'job') job = JSON.parse(String(part.value));
        else if (part.type === 'file' && part.fieldname === 'image') image = await part.toBuffer();
        else if (part.type === 'file' && part.fieldname === 'mask') mask = await part.toBuffer();
        else if (part.type === 'file') part.file.resume();
      }
      if (!job || !image || typeof job.model !== 'string') {
        log.warn({}, 'job refused: job and image are required');
        return reply.status(400).send({ code: 'BAD_REQUEST', message: 'job and image are required' });
      }
      const jlog = log.child({ jobId: job.jobId, launcherId: job.launcherId, model: job.model, modelVersion: job.version });
      span.setAttributes({ 'lamella.job_id': String(job.jobId), 'lamella.model': job.model, 'lamella.model_version': String(job.version ?? '') });
      reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // A dispatcher that gave up on us closes the connection: writing then must not throw.
      reply.raw.on('error', () => undefined);
      const send = (line: Record<string, unknown>) => {
        if (!reply.raw.destroyed && !reply.raw.writableEnded) reply.raw.write(JSON.stringify(line) + '\n');
      };
      send({ type: 'started', jobId: job.jobId });
      jlog.info({ imageBytes: image.length, mask: mask !== null, running, slots }, 'job started');
      const heartbeat = setInterval(() => {
        jlog.debug({}, 'heartbeat');
        send({ type: 'heartbeat' });
      }, heartbeatPeriod(job.heartbeatMs));
      try {
        const modelStart = performance.now();
        const out = await context.with(trace.setSpan(parent, span), () =>
          opts.engine.run({
            model: String(job.model),
            version: String(job.version ?? ''),
            settings: (job.settings as Record<string, unknown>) ?? {},
            crop: (job.crop as never) ?? null,
            language: job.language === 'de' ? 'de' : 'en',
            image,
            mask,
            pixelSizeUm: typeof job.pixelSizeUm === 'number' && job.pixelSizeUm > 0 ? job.pixelSizeUm : null,
            settingsCalibration: job.settingsCalibration !== false,
            sidecar: typeof job.sidecar === 'string' ? job.sidecar.slice(0, 256 * 1024) : null,
            recipe: job.recipe && typeof job.recipe === 'object' ? job.recipe : null,
          }),
        );
        // modelMs: the analysis' own time, so the server can tell it from transfer and storing (bench:pipeline)
        const modelMs = Math.round(performance.now() - modelStart);
        // overlays scaled to display size while the heartbeats go on (seconds for a 24 MP overlay)
        const files = await displayOverlays(out.items, out.files);
        clearInterval(heartbeat);
        jlog.info({ modelMs, files: out.files.length, gone: reply.raw.destroyed }, 'job finished; result sent');
        if (job.resultFiles === 'binary') {
          for (const f of files) {
            if (!(await writeAll(reply.raw, Buffer.from(JSON.stringify({ type: 'file', filename: f.filename, bytes: f.data.length }) + '\n')))) break;
            if (!(await writeAll(reply.raw, f.data))) break;
          }
          send({ type: 'result', modelMs, items: out.items, measurements: out.measurements });
        } else
          send({
            type: 'result',
            modelMs,
            items: out.items,
            measurements: out.measurements,
            files: files.map((f) => ({ filename: f.filename, data: f.data.toString('base64') })),
          });
      } catch (err) {
        clearInterval(heartbeat);
        const e = err as { code?: string; message?: string };
        jlog.warn({ code: e.code ?? 'ANALYSIS_FAILED', reason: e.message ?? String(err) }, 'job failed in the model');
        span.setStatus({ code: SpanStatusCode.ERROR, message: e.message ?? String(err) });
        send({ type: 'error', code: e.code ?? 'ANALYSIS_FAILED', message: e.message ?? String(err) });
      }
      if (!reply.raw.destroyed) reply.raw.end();
      return reply;
    } finally {
      running -= 1;
      span.end();
    }
  });

  await app.listen({ port: opts.port, host: opts.host ?? '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : opts.port,
    close: async () => {
      await app.close();
      await opts.engine.close();
    },
  };
}

/**
 * Writes `data` and waits while the socket's buffer is full (a slow reader is not given the whole result at
 * once); false when the dispatcher has gone.
 */
async function writeAll(res: ServerResponse, data: Buffer): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (res.write(data)) return true;
  await Promise.race([once(res, 'drain'), once(res, 'close')]);
  return !res.destroyed;
}
