import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Engine } from './engine.ts';
import type { NetworkCache } from './network-cache.ts';
import { heartbeatPeriod, openNdjson } from './ndjson.ts';
import { displayOverlays } from './overlays.ts';

export interface RunRouteDeps {
  engine: Engine;
  log: Logger;
  /** Jobs at once; a job beyond them is answered 503 BUSY. */
  slots: number;
  /** The trained networks of jobs that name one (`network: {sha256, url}`). */
  networks: NetworkCache;
}

/**
 * POST /run, multipart: `job` (JSON {jobId, model, version, settings, crop, language, heartbeatMs?, network?}),
 * `image`, optional `mask` → NDJSON lines: {type:'started'}, {type:'heartbeat'} every `heartbeatMs` (default 2 s,
 * 100 ms to 5 s) while the analysis runs, then the result or {type:'error', code, message}.
 * The result: with `resultFiles: 'binary'` in the job (servers from 2026-11-26 on), each file as a line
 * {type:'file', filename, bytes} followed by exactly `bytes` raw bytes, then {type:'result', items, measurements,
 * modelMs}; else one line {type:'result', items, measurements, files:[{filename, data (base64)}]}. Overlays (the
 * files of `image` items) are sent at display resolution (overlays.ts). The heartbeats tell the dispatcher the
 * launcher still answers: without one for a whole job lease it gives the job to another launcher.
 * A job with `network: {sha256, url}` (a trained version) runs its model with that network, downloaded once into
 * the cache (network-cache.ts); a download whose bytes do not hash to `sha256` fails the job with NETWORK_CHECKSUM.
 */
export function runRoute(app: FastifyInstance, d: RunRouteDeps) {
  const tracer = trace.getTracer('lamella-launcher');
  const { log, slots } = d;
  let running = 0;

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
      const out$ = openNdjson(reply.raw);
      out$.send({ type: 'started', jobId: job.jobId });
      jlog.info({ imageBytes: image.length, mask: mask !== null, network: job.network ? true : undefined, running, slots }, 'job started');
      const stopBeats = out$.heartbeats(heartbeatPeriod(job.heartbeatMs), () => jlog.debug({}, 'heartbeat'));
      try {
        const networkPath = job.network ? await d.networks.path(job.network) : null;
        const modelStart = performance.now();
        const out = await context.with(trace.setSpan(parent, span), () =>
          d.engine.run({
            model: String(job.model),
            version: networkPath ? engineVersion(d.engine, job) : String(job.version ?? ''),
            settings: (job.settings as Record<string, unknown>) ?? {},
            crop: (job.crop as never) ?? null,
            language: job.language === 'de' ? 'de' : 'en',
            image,
            mask,
            pixelSizeUm: typeof job.pixelSizeUm === 'number' && job.pixelSizeUm > 0 ? job.pixelSizeUm : null,
            settingsCalibration: job.settingsCalibration !== false,
            sidecar: typeof job.sidecar === 'string' ? job.sidecar.slice(0, 256 * 1024) : null,
            recipe: job.recipe && typeof job.recipe === 'object' ? job.recipe : null,
            networkPath,
          }),
        );
        // modelMs: the analysis' own time, so the server can tell it from transfer and storing (bench:pipeline)
        const modelMs = Math.round(performance.now() - modelStart);
        // overlays scaled to display size while the heartbeats go on (seconds for a 24 MP overlay)
        const files = await displayOverlays(out.items, out.files);
        stopBeats();
        jlog.info({ modelMs, files: out.files.length, gone: out$.gone }, 'job finished; result sent');
        if (job.resultFiles === 'binary') {
          for (const f of files) if (!(await out$.sendFile(f.filename, f.data))) break;
          out$.send({ type: 'result', modelMs, items: out.items, measurements: out.measurements });
        } else
          out$.send({
            type: 'result',
            modelMs,
            items: out.items,
            measurements: out.measurements,
            files: files.map((f) => ({ filename: f.filename, data: f.data.toString('base64') })),
          });
      } catch (err) {
        stopBeats();
        const e = err as { code?: string; message?: string };
        jlog.warn({ code: e.code ?? 'ANALYSIS_FAILED', reason: e.message ?? String(err) }, 'job failed in the model');
        span.setStatus({ code: SpanStatusCode.ERROR, message: e.message ?? String(err) });
        out$.send({ type: 'error', code: e.code ?? 'ANALYSIS_FAILED', message: e.message ?? String(err) });
      }
      out$.end();
      return reply;
    } finally {
      running -= 1;
      span.end();
    }
  });

  return {
    get running() {
      return running;
    },
  };
}

/**
 * The shipped version a trained network runs in: a trained version's label (`20261201-ft1`) is no engine version,
 * so the job's `version` when it is a shipped one, else `network.engineVersion` when that is, else the version the
 * label was trained from (`20261201`: the current one when it was trained, the engine its validation ran in), so a
 * trained version keeps its results when a newer engine ships; else the model's newest shipped version.
 */
export function engineVersion(engine: Engine, job: Record<string, unknown>): string {
  const shipped = engine.models().find((m) => m.name === job.model)?.versions ?? [];
  const asked = String(job.version ?? '');
  if (shipped.includes(asked)) return asked;
  const named = (job.network as { engineVersion?: unknown } | undefined)?.engineVersion;
  if (typeof named === 'string' && shipped.includes(named)) return named;
  const base = asked.replace(/(-ft\d+)+$/, '');
  if (base !== asked && shipped.includes(base)) return base;
  return [...shipped].sort().at(-1) ?? asked;
}
