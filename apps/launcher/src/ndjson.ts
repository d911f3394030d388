import { once } from 'node:events';
import type { ServerResponse } from 'node:http';

export const DEFAULT_HEARTBEAT_MS = 2000;

/** The heartbeat period the dispatcher asked for, kept between 100 ms and 5 s. */
export function heartbeatPeriod(asked: unknown): number {
  const ms = typeof asked === 'number' && Number.isFinite(asked) ? asked : DEFAULT_HEARTBEAT_MS;
  return Math.min(5000, Math.max(100, Math.round(ms)));
}

/**
 * The launcher's streamed answer (POST /run and POST /train): NDJSON lines, and binary files framed as a line
 * `{type:'file', filename, bytes}` followed by exactly `bytes` raw bytes (read by FrameReader in
 * apps/server/src/modules/jobs/launcher-client.ts). A dispatcher that gave up closes the connection: writing then
 * does nothing and never throws.
 */
export interface NdjsonStream {
  /** Writes one line (dropped when the dispatcher has gone). */
  send(line: Record<string, unknown>): void;
  /** Writes one file frame, waiting while the socket's buffer is full; false when the dispatcher has gone. */
  sendFile(filename: string, data: Buffer): Promise<boolean>;
  /** Sends `{type:'heartbeat'}` every `ms` until the returned function is called. */
  heartbeats(ms: number, onBeat?: () => void): () => void;
  /** The dispatcher closed the connection. */
  readonly gone: boolean;
  end(): void;
}

export function openNdjson(res: ServerResponse): NdjsonStream {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  res.on('error', () => undefined);
  const gone = () => res.destroyed || res.writableEnded;
  return {
    send(line) {
      if (!gone()) res.write(JSON.stringify(line) + '\n');
    },
    async sendFile(filename, data) {
      if (!(await writeAll(res, Buffer.from(JSON.stringify({ type: 'file', filename, bytes: data.length }) + '\n')))) return false;
      return writeAll(res, data);
    },
    heartbeats(ms, onBeat) {
      const timer = setInterval(() => {
        onBeat?.();
        if (!gone()) res.write(JSON.stringify({ type: 'heartbeat' }) + '\n');
      }, ms);
      return () => clearInterval(timer);
    },
    get gone() {
      return res.destroyed;
    },
    end() {
      if (!gone()) res.end();
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
