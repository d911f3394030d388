import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { TrainSpec } from '@lamella/analysis';
import { FrameReader, LauncherBusy, LauncherUnavailable, post, readAnswer } from '../jobs/launcher-client.ts';

/**
 * POST /train on a launcher (apps/launcher/src/train.ts) and its NDJSON answer, in the framing of POST /run (the
 * jobs' slice-wise POST and answer reader `readAnswer` are reused, with this answer's lines): `started`,
 * `progress` lines, `heartbeat`s, the file `network.onnx` as a binary file frame, then `done` with the model card
 * and the validation, or `error`.
 */

export interface TrainLine {
  step: number;
  steps: number;
  loss: number | null;
  elapsedS: number;
  etaS: number | null;
}

export interface TrainOptions {
  signal: AbortSignal;
  heartbeatMs: number;
  /** Any line or bytes from the launcher: a sign of life. */
  onBeat: () => void;
  onStarted?: () => void;
  onProgress: (p: TrainLine) => void;
  /** Stores the network file as its bytes arrive; settles when stored. */
  onFile: (filename: string, source: Readable) => Promise<void>;
  /** Largest network accepted (default 512 MB). */
  maxFileBytes?: number;
}

export interface TrainDone {
  card: Record<string, unknown>;
  validation: unknown;
  files: string[];
}

/** The launcher refused or failed the training itself (its `error` line, or a 4xx naming a code): no retry elsewhere helps. */
export class TrainingRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The launcher cannot train (409 TRAINING_UNAVAILABLE): another launcher may; the attempt is not counted. */
export class TrainingUnavailable extends LauncherBusy {}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

async function readBody(res: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of res as AsyncIterable<Buffer>) {
    chunks.push(c);
    if (chunks.length > 64) break;
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

export async function trainOnLauncher(
  baseUrl: string,
  spec: TrainSpec,
  files: Array<{ field: string; data: Buffer }>,
  opts: TrainOptions,
): Promise<TrainDone> {
  const signal = opts.signal;
  const why = (err: unknown) =>
    signal.aborted && signal.reason instanceof Error ? signal.reason.message : err instanceof Error ? err.message : String(err);
  const form = new FormData();
  form.append('spec', JSON.stringify({ ...spec, heartbeatMs: opts.heartbeatMs }));
  for (const f of files) form.append(f.field, new Blob([f.data]), f.field);
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  let res: IncomingMessage;
  try {
    res = await post(
      `${baseUrl}/train`,
      body,
      { 'content-type': encoded.headers.get('content-type')!, 'x-heartbeat-ms': String(opts.heartbeatMs) },
      signal,
      opts.onBeat,
    );
  } catch (err) {
    throw new LauncherUnavailable(why(err));
  }
  if (res.statusCode === 503) {
    res.resume();
    throw new LauncherBusy('launcher answered 503 (busy with another training run)');
  }
  if (res.statusCode === 409) {
    const b = await readBody(res);
    throw new TrainingUnavailable(String(b.message ?? 'the launcher cannot train'));
  }
  if (res.statusCode === 404) {
    res.resume();
    throw new TrainingUnavailable('the launcher has no POST /train (an older version)');
  }
  if (res.statusCode !== 200) {
    const b = await readBody(res);
    if (res.statusCode && res.statusCode >= 400 && res.statusCode < 500)
      throw new TrainingRefused(String(b.code ?? 'TRAINING_REFUSED'), String(b.message ?? `launcher answered ${res.statusCode}`));
    throw new LauncherUnavailable(`launcher answered ${res.statusCode}`);
  }
  const maxFile = opts.maxFileBytes ?? 512 * 1024 * 1024;
  const names: string[] = [];
  let done: TrainDone | undefined;
  try {
    done = await readAnswer<TrainDone>(res, new FrameReader(16 * 1024 * 1024), {
      onChunk: () => opts.onBeat(),
      onFileLine: (msg, bytes) => {
        if (bytes > maxFile) throw new TrainingRefused('NETWORK_TOO_LARGE', `the trained network is larger than ${Math.round(maxFile / 1048576)} MB`);
        if (typeof msg.filename !== 'string' || !/^[\w.-]{1,100}$/.test(msg.filename))
          throw new Error('the launcher sent a file without a valid name');
        return msg.filename;
      },
      onFile: (filename, source) => {
        names.push(filename);
        return opts.onFile(filename, source);
      },
      onLine: (msg) => {
        if (msg.type === 'started') opts.onStarted?.();
        else if (msg.type === 'progress') {
          const step = num(msg.step);
          const steps = num(msg.steps);
          if (step !== null && steps !== null)
            opts.onProgress({ step, steps, loss: num(msg.loss), elapsedS: num(msg.elapsedS) ?? 0, etaS: num(msg.etaS) });
        } else if (msg.type === 'error') throw new TrainingRefused(String(msg.code ?? 'TRAINING_FAILED'), String(msg.message ?? 'training failed'));
        else if (msg.type === 'done') {
          const card = msg.card && typeof msg.card === 'object' && !Array.isArray(msg.card) ? (msg.card as Record<string, unknown>) : {};
          return { card, validation: msg.validation, files: names };
        }
        return undefined;
      },
    });
  } catch (err) {
    if (err instanceof TrainingRefused) throw err;
    throw new LauncherUnavailable(why(err));
  }
  if (done) return done;
  if (signal.aborted) throw new LauncherUnavailable(why(null));
  throw new LauncherUnavailable('the launcher closed the connection before the training was done');
}
