import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { DecodeTask, RefusalCode, TaskAnswer } from './decode-tasks.ts';

/**
 * The bounded pool of image decode workers (issue 28 item 2, issue 30 item 4). Every decode of an uploaded
 * image — renditions, masks, logos, header reads — runs in one of `workers` child processes
 * (decode-worker.ts), at most one task each; further tasks wait in line. The server's process never holds
 * decoded pixels, so a decompression bomb cannot grow its memory or stall its event loop:
 * - the header is checked first: width × height × channels × bytes per sample over `IMAGE_DECODE_MAX_MB` is
 *   refused before decoding (DECODED), as are images over the pixel limit (PIXELS);
 * - a worker whose memory passes `IMAGE_WORKER_MEMORY_MB` exits at once (MEMORY) and a task running longer
 *   than `timeoutMs` is killed (TIMEOUT); the next task gets a fresh worker;
 * - a worker that ends a task above a quarter of its limit is replaced, so the memory returns to the system.
 * Workers are child processes (not worker threads: libvips allocates outside V8's heap, where a thread's
 * resourceLimits do not reach); they start on first use and stay, unreferenced, for the next upload.
 */
export interface ImageWorkerSettings {
  /** `IMAGE_WORKERS` (default: cores − 1, at least 1, at most 4). */
  workers: number;
  /** `IMAGE_WORKER_MEMORY_MB` (default 1536). */
  memoryMb: number;
  /** `IMAGE_DECODE_MAX_MB` (default 600: a 100 MP RGB 16-bit image). */
  decodeMaxMb: number;
  timeoutMs?: number;
}

export const defaultImageWorkers = () => Math.max(1, Math.min(4, availableParallelism() - 1));

/** A task the pool refused or could not finish: `code` says why (decode-tasks.ts RefusalCode). */
export class DecodeRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}

const workerMain = fileURLToPath(new URL('./decode-worker.ts', import.meta.url));
type Task = { task: DecodeTask; resolve: (v: unknown) => void; reject: (e: Error) => void };
interface Worker {
  child: ChildProcess;
  busy: Task | null;
  timer?: NodeJS.Timeout;
  timedOut: boolean;
}

export class ImageWorkerPool {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  /** Workers started so far (tests and benches read it). */
  started = 0;

  constructor(readonly settings: ImageWorkerSettings) {}

  /** The limits every task carries (the header check in the worker). */
  get maxDecodeBytes(): number {
    return Math.floor(this.settings.decodeMaxMb * 1024 * 1024);
  }

  run<T>(task: DecodeTask): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ task, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Process ids of the running workers (the fault bench measures their memory). */
  pids(): number[] {
    return [...this.all].map((w) => w.child.pid!).filter(Boolean);
  }

  async close(): Promise<void> {
    for (const w of this.all) w.child.kill('SIGKILL');
    this.all.clear();
    this.idle.length = 0;
  }

  private pump(): void {
    while (this.queue.length) {
      const worker = this.idle.pop() ?? (this.all.size < this.settings.workers ? this.spawn() : null);
      if (!worker) return;
      this.assign(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    const child = fork(workerMain, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...process.env, IMAGE_WORKER_MEMORY_BYTES: String(Math.floor(this.settings.memoryMb * 1024 * 1024)) },
    });
    this.started += 1;
    const worker: Worker = { child, busy: null, timedOut: false };
    this.all.add(worker);
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-2000)));
    child.on('message', (answer: TaskAnswer) => {
      const t = worker.busy;
      if (!t) return;
      worker.busy = null;
      clearTimeout(worker.timer);
      if (answer.ok) t.resolve(answer.value);
      else t.reject(new DecodeRefused(answer.code, answer.message));
      // above a quarter of its limit, the worker is replaced: its memory goes back to the system
      if (answer.rss > (this.settings.memoryMb * 1024 * 1024) / 4) this.retire(worker);
      else {
        this.unref(worker);
        this.idle.push(worker);
      }
      this.pump();
    });
    child.on('exit', (code, signal) => {
      this.all.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      clearTimeout(worker.timer);
      const t = worker.busy;
      worker.busy = null;
      if (t) {
        const memory = code === 75;
        t.reject(
          new DecodeRefused(
            memory ? 'MEMORY' : worker.timedOut ? 'TIMEOUT' : 'CORRUPT',
            memory
              ? `decoding needs more than ${this.settings.memoryMb} MB (IMAGE_WORKER_MEMORY_MB)`
              : worker.timedOut
                ? 'decoding took too long'
                : `image worker ended (${signal ?? code}): ${stderr.trim()}`,
          ),
        );
      }
      this.pump();
    });
    return worker;
  }

  private assign(worker: Worker, t: Task): void {
    worker.busy = t;
    worker.child.ref();
    (worker.child.channel as { ref?: () => void } | undefined)?.ref?.();
    worker.timedOut = false;
    worker.timer = setTimeout(() => {
      worker.timedOut = true;
      worker.child.kill('SIGKILL');
    }, this.settings.timeoutMs ?? 120_000);
    worker.child.send({ ...t.task, id: this.nextId++ });
  }

  /** An idle worker does not keep the server's process alive. */
  private unref(worker: Worker): void {
    worker.child.unref();
    (worker.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }

  private retire(worker: Worker): void {
    this.all.delete(worker);
    worker.child.kill('SIGKILL');
  }
}

export const DEFAULT_IMAGE_DECODE_MAX_MB = 600;
export const DEFAULT_IMAGE_WORKER_MEMORY_MB = 1536;
const pools = new Map<string, ImageWorkerPool>();
let configured: Partial<ImageWorkerSettings> = {};

/** The settings `imageWorkers()` uses from now on (the app passes its configuration when it is built). */
export function configureImageWorkers(settings: Partial<ImageWorkerSettings>): void {
  configured = settings;
}

/** The process's pool for these settings (default: the configured ones), made on first use. */
export function imageWorkers(settings: Partial<ImageWorkerSettings> = configured): ImageWorkerPool {
  const wanted: ImageWorkerSettings = {
    workers: settings?.workers || defaultImageWorkers(),
    memoryMb: settings?.memoryMb ?? DEFAULT_IMAGE_WORKER_MEMORY_MB,
    decodeMaxMb: settings?.decodeMaxMb ?? DEFAULT_IMAGE_DECODE_MAX_MB,
    ...(settings?.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
  };
  const key = JSON.stringify(wanted);
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = new ImageWorkerPool(wanted)));
  return pool;
}
