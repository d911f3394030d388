/** Talks to a launcher over HTTP (apps/launcher/src/server.ts). */
export interface LauncherResult {
  items: unknown[];
  measurements: Record<string, unknown>;
  files: Array<{ filename: string; data: Buffer }>;
  /** The launcher's own analysis time (ms), when it reports it. */
  modelMs?: number;
}

/** The launcher answered, and the model failed on this input: retrying elsewhere would fail the same way. */
export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The launcher could not be reached, broke off or stopped answering: the job may succeed on another launcher. */
export class LauncherUnavailable extends Error {}

/** The launcher refused the job because all its slots are taken (503 BUSY): the job did not start there. */
export class LauncherBusy extends LauncherUnavailable {}

export async function launcherHealth(baseUrl: string, timeoutMs = 3000) {
  const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new LauncherUnavailable(`health answered ${res.status}`);
  return (await res.json()) as {
    status: string;
    version: string;
    models: Array<{ name: string; versions: string[] }>;
    busy: boolean;
    slots?: number;
  };
}

export interface RunOptions {
  timeoutMs: number;
  /** Aborts the request (the dispatcher's watchdog: no heartbeat for a whole lease, or the lease was lost). */
  signal?: AbortSignal;
  /** Extra request headers: the trace context (`traceparent`) of the job's dispatch. */
  headers?: Record<string, string>;
  /** Sent to the launcher: how often it must send a line (heartbeat) while the job runs. */
  heartbeatMs?: number;
  /** The launcher took the job (`started` line). */
  onStarted?: () => void;
  /** Any line from the launcher is a sign of life; `progress` (0..1) when the line carries one. */
  onBeat?: (progress?: number) => void;
}

/**
 * Runs a job on a launcher: POST /run, then reads its NDJSON answer. Every line (`started`, `heartbeat`,
 * `progress`) is a heartbeat reported through `onBeat`; the caller aborts through `signal` when they stop.
 */
export async function runOnLauncher(
  baseUrl: string,
  job: {
    jobId: string;
    /** The launcher's id on this server (executors.id), so its log lines name it. */
    launcherId?: string;
    model: string;
    version: string;
    settings: unknown;
    crop: unknown;
    language: string;
    pixelSizeUm?: number | null;
    settingsCalibration?: boolean;
    /** Text of the instrument's sidecar file uploaded with the image. */
    sidecar?: string | null;
  },
  image: Buffer,
  mask: Buffer | null,
  opts: RunOptions,
): Promise<LauncherResult> {
  const signals = [AbortSignal.timeout(opts.timeoutMs)];
  if (opts.signal) signals.push(opts.signal);
  const signal = AbortSignal.any(signals);
  /** An abort carries its reason (e.g. "launcher not responding"): report that, not a bare "aborted". */
  const why = (err: unknown) =>
    signal.aborted && signal.reason instanceof Error ? signal.reason.message : err instanceof Error ? err.message : String(err);
  const form = new FormData();
  form.append('job', JSON.stringify(opts.heartbeatMs ? { ...job, heartbeatMs: opts.heartbeatMs } : job));
  form.append('image', new Blob([image]), 'image');
  if (mask) form.append('mask', new Blob([mask]), 'mask.png');
  // The multipart body is encoded into one buffer first: a FormData body is streamed by undici from an async
  // iterator whose delayed close throws an uncatchable ERR_INVALID_STATE when the upload is aborted (a launcher
  // frozen mid-upload; nodejs/undici#5715). A byte body has no such stream.
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/run`, {
      method: 'POST',
      body,
      signal,
      headers: { ...opts.headers, 'content-type': encoded.headers.get('content-type')! },
    });
  } catch (err) {
    throw new LauncherUnavailable(why(err));
  }
  if (res.status === 503) {
    await res.body?.cancel().catch(() => undefined);
    throw new LauncherBusy('launcher answered 503 (busy)');
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new LauncherUnavailable(`launcher answered ${res.status}`);
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line.trim()) continue;
        const msg = JSON.parse(line) as { type: string; [k: string]: unknown };
        const progress = typeof msg.progress === 'number' && msg.progress >= 0 && msg.progress <= 1 ? msg.progress : undefined;
        opts.onBeat?.(progress);
        if (msg.type === 'started') opts.onStarted?.();
        else if (msg.type === 'error') throw new ModelError(String(msg.code ?? 'ANALYSIS_FAILED'), String(msg.message ?? 'analysis failed'));
        else if (msg.type === 'result') {
          return {
            items: msg.items as unknown[],
            measurements: (msg.measurements as Record<string, unknown>) ?? {},
            files: ((msg.files as Array<{ filename: string; data: string }>) ?? []).map((f) => ({
              filename: f.filename,
              data: Buffer.from(f.data, 'base64'),
            })),
            ...(typeof msg.modelMs === 'number' && msg.modelMs >= 0 ? { modelMs: msg.modelMs } : {}),
          };
        }
      }
    }
  } catch (err) {
    if (err instanceof ModelError) throw err;
    throw new LauncherUnavailable(why(err));
  }
  if (signal.aborted) throw new LauncherUnavailable(why(null));
  throw new LauncherUnavailable('the launcher closed the connection before the result');
}
