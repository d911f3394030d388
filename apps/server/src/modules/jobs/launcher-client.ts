import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';

/** Talks to a launcher over HTTP (apps/launcher/src/server.ts). */
export interface LauncherResult {
  items: unknown[];
  measurements: Record<string, unknown>;
  /**
   * The result's files in the order they came. `data` only when the caller gave no `onFile` (then the files are
   * kept in memory); with `onFile` they were streamed to it as they arrived and only their sizes are kept.
   */
  files: Array<{ filename: string; bytes: number; data?: Buffer }>;
  /** The launcher's own analysis time (ms), when it reports it. */
  modelMs?: number;
}

export class ModelError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The result is larger than the server accepts (`MAX_RESULT_MB`): the same job would be as large again, so no retry. */
export class ResultTooLarge extends ModelError {
  constructor(readonly maxBytes: number) {
    super('RESULT_TOO_LARGE', `the result is larger than the maximum of ${Math.round(maxBytes / (1024 * 1024))} MB (MAX_RESULT_MB)`);
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
  /** Any bytes from the launcher are a sign of life too (a long result line or file in transfer). */
  onBytes?: () => void;
  /** Largest answer accepted (all lines and files together); larger fails with ResultTooLarge at once. */
  maxResultBytes?: number;
  /**
   * Stores one result file: `source` delivers its bytes as they arrive (the launcher's binary file frames); the
   * promise settles when it is stored. Without it, files are collected in memory (LauncherResult.files[].data).
   */
  onFile?: (filename: string, source: Readable) => Promise<void>;
}

/** One piece of the launcher's answer: a complete line (without its newline), or bytes of a file frame. */
export type Frame = { kind: 'line'; line: Buffer } | { kind: 'data'; data: Buffer; last: boolean };

/** A line longer than the reader's limit. */
export class LineTooLong extends Error {}

/**
 * Splits the launcher's answer into NDJSON lines and binary file frames, on Buffers. Only the bytes that
 * arrive are searched for the newline; the pieces of an unfinished line are kept as they came and joined once
 * when the line ends, so a line of any length costs linear time and one copy. After a `file` header line, the
 * caller says how many bytes follow (`expectBytes`): those are handed on as `data` frames, never buffered.
 */
export class FrameReader {
  private parts: Buffer[] = [];
  private size = 0;
  private fileLeft = 0;

  constructor(private readonly maxLineBytes = Number.POSITIVE_INFINITY) {}

  /** The next `n` bytes are a file's body (call it after the file's header line, before reading on). */
  expectBytes(n: number): void {
    this.fileLeft = n;
  }

  /** Bytes of an unfinished line or file are left over (the answer ended in the middle of one). */
  get midFrame(): boolean {
    return this.size > 0 || this.fileLeft > 0;
  }

  *push(chunk: Buffer): Generator<Frame> {
    let pos = 0;
    while (pos < chunk.length) {
      if (this.fileLeft > 0) {
        const n = Math.min(this.fileLeft, chunk.length - pos);
        this.fileLeft -= n;
        pos += n;
        yield { kind: 'data', data: chunk.subarray(pos - n, pos), last: this.fileLeft === 0 };
        continue;
      }
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (this.size + end - pos > this.maxLineBytes) throw new LineTooLong(`a line of more than ${this.maxLineBytes} bytes`);
      if (nl < 0) {
        this.parts.push(chunk.subarray(pos));
        this.size += chunk.length - pos;
        return;
      }
      const tail = chunk.subarray(pos, nl);
      const line = this.parts.length ? Buffer.concat([...this.parts, tail], this.size + tail.length) : tail;
      this.parts = [];
      this.size = 0;
      pos = nl + 1;
      yield { kind: 'line', line };
    }
  }
}

/** A JSON line of the launcher's answer. */
export type AnswerLine = { type: string; [k: string]: unknown };

export interface AnswerHandlers<T> {
  /** Each chunk of the answer as it arrives (a sign of life); may throw to stop reading. */
  onChunk?: (chunk: Buffer) => void;
  /**
   * A `file` line whose size (`bytes`, checked to be a whole number ≥ 0) is read: checks the size against its limit
   * and the name, and answers the name (throws to refuse the file before its bytes come). Its bytes follow as the
   * file's body, streamed to `onFile`.
   */
  onFileLine: (msg: AnswerLine, bytes: number) => string;
  /** Where a file's bytes (`bytes` of them) go as they arrive; settles when the file is stored. */
  onFile: (filename: string, source: Readable, bytes: number) => Promise<void>;
  /**
   * Any other line: answers the reading's value to end with it (once every file is stored), or undefined to read
   * on; throws to fail. `addFile` stores a file that came inside a line (earlier launchers' base64 files).
   */
  onLine: (msg: AnswerLine, addFile: (filename: string, data: Buffer) => void) => T | undefined;
}

/**
 * Reads a launcher's framed answer (POST /run and POST /train): NDJSON lines and, after a `file` line, that many raw
 * bytes streamed to the file's consumer with back-pressure (the launcher's bytes wait in the socket while storage
 * is slower). Answers the value of the line that ends it, after every file is stored; undefined when the answer
 * ends before such a line. On any error the file being received is broken off, every store is settled, and the
 * error is thrown on.
 */
export async function readAnswer<T>(res: AsyncIterable<Buffer>, reader: FrameReader, h: AnswerHandlers<T>): Promise<T | undefined> {
  /** The file whose bytes are coming now, and the promise of its storing. */
  let open: { source: PassThrough; stored: Promise<void> } | null = null;
  const storing: Array<Promise<void>> = [];
  const startFile = (filename: string, bytes: number) => {
    const source = new PassThrough({ highWaterMark: 1024 * 1024 });
    // its consumer learns of a broken-off answer through its own pipeline; no unhandled 'error' here
    source.on('error', () => undefined);
    const stored = h.onFile(filename, source, bytes);
    // a failed store is reported when the answer is complete (or by the next write's wait); never unhandled
    stored.catch(() => undefined);
    storing.push(stored);
    open = { source, stored };
    if (bytes === 0) {
      source.end();
      open = null;
    }
  };
  const addFile = (filename: string, data: Buffer) => {
    startFile(filename, data.length);
    if (data.length) open!.source.end(data);
    open = null;
  };
  const breakOff = async () => {
    (open as { source: PassThrough } | null)?.source.destroy(new Error('the launcher answer was broken off'));
    await Promise.allSettled(storing);
  };
  try {
    for await (const chunk of res) {
      h.onChunk?.(chunk);
      for (const frame of reader.push(chunk)) {
        if (frame.kind === 'data') {
          const file = open!;
          const more = file.source.write(frame.data);
          if (frame.last) {
            file.source.end();
            open = null;
          }
          if (!more && !frame.last) await Promise.race([once(file.source, 'drain'), file.stored]);
          continue;
        }
        if (!frame.line.length || (frame.line.length < 8 && !frame.line.toString().trim())) continue;
        const msg = JSON.parse(frame.line.toString('utf8')) as AnswerLine;
        if (msg.type === 'file') {
          const bytes = msg.bytes;
          if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0)
            throw new Error('the launcher sent a file frame without its size');
          startFile(h.onFileLine(msg, bytes), bytes);
          reader.expectBytes(bytes);
          continue;
        }
        const value = h.onLine(msg, addFile);
        if (value !== undefined) {
          await Promise.all(storing);
          return value;
        }
      }
    }
  } catch (err) {
    await breakOff();
    throw err;
  }
  await breakOff();
  return undefined;
}

/** A file name the launcher sent, kept as given when it is a plain name (the dispatcher makes it storage-safe). */
const fileName = (v: unknown): string => {
  if (typeof v !== 'string' || !v || v.length > 200) throw new Error('the launcher sent a file without a valid name');
  return v;
};

/**
 * Runs a job on a launcher: POST /run, then reads its NDJSON answer. Every line (`started`, `heartbeat`,
 * `progress`) is a heartbeat reported through `onBeat`, and any bytes at all through `onBytes`; the caller
 * aborts through `signal` when they stop. The job asks for binary file frames (`resultFiles: 'binary'`): each
 * result file comes as a line `{type:'file', filename, bytes}` followed by exactly `bytes` raw bytes, streamed
 * to `onFile` as they arrive; then the `result` line (items and measurements only). A launcher of an earlier
 * version sends base64 files inside the result line; both are read.
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
    /** The job's recipe version (issue 22): names, classes, measures and the trained classifier. */
    recipe?: unknown;
    /** The trained network of the job's version (issue 25), fetched once by the launcher; absent for a shipped version. */
    network?: { sha256: string; url: string };
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
  form.append('job', JSON.stringify({ ...job, resultFiles: 'binary', ...(opts.heartbeatMs ? { heartbeatMs: opts.heartbeatMs } : {}) }));
  form.append('image', new Blob([image]), 'image');
  if (mask) form.append('mask', new Blob([mask]), 'mask.png');
  // The multipart body is encoded into one buffer first: a FormData body is streamed by undici from an async
  // iterator whose delayed close throws an uncatchable ERR_INVALID_STATE when the upload is aborted (a launcher
  // frozen mid-upload; nodejs/undici#5715). A byte body has no such stream. It is sent with node:http in
  // slices, each one flushed to the socket a sign of life (`onBytes`): a 66 MB image takes a busy launcher
  // longer than a lease to take in, and only a launcher that stops taking bytes is not responding.
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  let res: IncomingMessage;
  try {
    res = await post(`${baseUrl}/run`, body, { ...opts.headers, 'content-type': encoded.headers.get('content-type')! }, signal, () =>
      opts.onBytes?.(),
    );
  } catch (err) {
    throw new LauncherUnavailable(why(err));
  }
  if (res.statusCode === 503) {
    res.resume();
    throw new LauncherBusy('launcher answered 503 (busy)');
  }
  if (res.statusCode !== 200) {
    res.resume();
    throw new LauncherUnavailable(`launcher answered ${res.statusCode}`);
  }
  const maxBytes = opts.maxResultBytes ?? Number.POSITIVE_INFINITY;
  const files: LauncherResult['files'] = [];
  let received = 0;
  let result: LauncherResult | undefined;
  try {
    result = await readAnswer<LauncherResult>(res, new FrameReader(maxBytes), {
      onChunk: (chunk) => {
        received += chunk.length;
        opts.onBytes?.();
        if (received > maxBytes) throw new ResultTooLarge(maxBytes);
      },
      onFileLine: (msg, bytes) => {
        opts.onBeat?.(undefined);
        // refused before its bytes come: the frame says how large the file is
        if (received + bytes > maxBytes) throw new ResultTooLarge(maxBytes);
        return fileName(msg.filename);
      },
      onFile: (filename, source, bytes) => {
        const entry: LauncherResult['files'][number] = { filename, bytes };
        files.push(entry);
        if (opts.onFile) return opts.onFile(filename, source);
        const chunks: Buffer[] = [];
        source.on('data', (c: Buffer) => chunks.push(c));
        return once(source, 'end').then(() => void (entry.data = Buffer.concat(chunks)));
      },
      onLine: (msg, addFile) => {
        const progress = typeof msg.progress === 'number' && msg.progress >= 0 && msg.progress <= 1 ? msg.progress : undefined;
        opts.onBeat?.(progress);
        if (msg.type === 'started') opts.onStarted?.();
        else if (msg.type === 'error') throw new ModelError(String(msg.code ?? 'ANALYSIS_FAILED'), String(msg.message ?? 'analysis failed'));
        else if (msg.type === 'result') {
          // a launcher of an earlier version sends its files inside the result line, base64-encoded
          for (const f of (msg.files as Array<{ filename: string; data: string }> | undefined) ?? [])
            addFile(fileName(f.filename), Buffer.from(f.data, 'base64'));
          return {
            items: msg.items as unknown[],
            measurements: (msg.measurements as Record<string, unknown>) ?? {},
            files,
            ...(typeof msg.modelMs === 'number' && msg.modelMs >= 0 ? { modelMs: msg.modelMs } : {}),
          };
        }
        return undefined;
      },
    });
  } catch (err) {
    const failed = err instanceof ModelError ? err : err instanceof LineTooLong ? new ResultTooLarge(maxBytes) : null;
    if (failed) throw failed;
    throw new LauncherUnavailable(why(err));
  }
  if (result) return result;
  if (signal.aborted) throw new LauncherUnavailable(why(null));
  throw new LauncherUnavailable('the launcher closed the connection before the result');
}

/**
 * POSTs `body` in slices of 256 KB with back-pressure; `progress` after each slice is flushed. Resolves with the response.
 * Also the training runs' POST /train (training-runs/launcher-client.ts).
 */
export function post(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  signal: AbortSignal,
  progress: () => void,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, signal }, resolve);
    req.on('error', reject);
    const SLICE = 256 * 1024;
    let pos = 0;
    const more = () => {
      while (pos < body.length && !req.destroyed) {
        const end = Math.min(body.length, pos + SLICE);
        const flowing = req.write(body.subarray(pos, end), () => progress());
        pos = end;
        if (!flowing) {
          req.once('drain', more);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    more();
  });
}
