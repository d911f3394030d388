/** Talks to a launcher over HTTP (apps/launcher/src/server.ts). */
export interface LauncherResult {
  items: unknown[];
  measurements: Record<string, unknown>;
  files: Array<{ filename: string; data: Buffer }>;
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

/** The launcher could not be reached or broke off: the job may succeed on another launcher. */
export class LauncherUnavailable extends Error {}

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

export async function runOnLauncher(
  baseUrl: string,
  job: { jobId: string; model: string; version: string; settings: unknown; crop: unknown; language: string },
  image: Buffer,
  mask: Buffer | null,
  opts: { timeoutMs: number; onStarted?: () => void },
): Promise<LauncherResult> {
  const form = new FormData();
  form.append('job', JSON.stringify(job));
  form.append('image', new Blob([image]), 'image');
  if (mask) form.append('mask', new Blob([mask]), 'mask.png');
  let res: Response;
  try {
    res = await fetch(`${baseUrl}/run`, { method: 'POST', body: form, signal: AbortSignal.timeout(opts.timeoutMs) });
  } catch (err) {
    throw new LauncherUnavailable(err instanceof Error ? err.message : String(err));
  }
  if (res.status !== 200 || !res.body) throw new LauncherUnavailable(`launcher answered ${res.status}`);
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
          };
        }
      }
    }
  } catch (err) {
    if (err instanceof ModelError) throw err;
    throw new LauncherUnavailable(err instanceof Error ? err.message : String(err));
  }
  throw new LauncherUnavailable('the launcher closed the connection before the result');
}
