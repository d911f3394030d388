import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A job's trained network (a version made by a training run): its file's sha256 and where the server serves it. */
export interface NetworkRef {
  sha256: string;
  url: string;
}

/** Why a job's network could not be used: the job fails with `code` (the error line of POST /run). */
export class NetworkError extends Error {
  constructor(
    readonly code: 'NETWORK_INVALID' | 'NETWORK_UNAVAILABLE' | 'NETWORK_CHECKSUM' | 'NETWORK_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}

export interface NetworkCacheOptions {
  /** LAUNCHER_CACHE_DIR: one file `<sha256>.onnx` per network. */
  dir: string;
  /** The server a relative `url` is resolved against (LAUNCHER_SERVER_URL). */
  serverUrl?: string;
  /** Sent as `authorization: Bearer …` with each download (LAUNCHER_REGISTRATION_TOKEN). */
  token?: string;
  /** Largest network file accepted (default 512 MB). */
  maxBytes?: number;
  timeoutMs?: number;
}

/** LAUNCHER_CACHE_DIR, else `DATA_DIR/tmp/launcher-networks` when DATA_DIR is set, else the system's temp folder. */
export function defaultCacheDir(env = process.env): string {
  if (env.LAUNCHER_CACHE_DIR) return env.LAUNCHER_CACHE_DIR;
  if (env.DATA_DIR) return join(env.DATA_DIR, 'tmp', 'launcher-networks');
  return join(tmpdir(), 'lamella-launcher-networks');
}

/**
 * The trained networks jobs ask for, downloaded once each: a network is kept as `<sha256>.onnx` in the cache
 * folder, written to a temporary name and renamed only after its bytes hashed to the sha256 the job gave (a
 * half-written or wrong file never has the final name). Jobs asking for a network being downloaded wait for that
 * download.
 */
export function createNetworkCache(o: NetworkCacheOptions) {
  const maxBytes = o.maxBytes ?? 512 * 1024 * 1024;
  const pending = new Map<string, Promise<string>>();
  let downloads = 0;

  const download = async (sha: string, url: URL, file: string): Promise<string> => {
    await mkdir(o.dir, { recursive: true });
    const res = await fetch(url, {
      headers: o.token ? { authorization: `Bearer ${o.token}` } : {},
      signal: AbortSignal.timeout(o.timeoutMs ?? 120_000),
    }).catch((err: unknown) => {
      throw new NetworkError('NETWORK_UNAVAILABLE', `The network ${sha} could not be downloaded from ${url.origin}: ${(err as Error).message}`);
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new NetworkError('NETWORK_UNAVAILABLE', `The network ${sha} could not be downloaded: ${url.origin} answered ${res.status}`);
    }
    if (Number(res.headers.get('content-length')) > maxBytes) {
      await res.body.cancel();
      throw new NetworkError('NETWORK_TOO_LARGE', `The network ${sha} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    }
    downloads += 1;
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    const hash = createHash('sha256');
    let size = 0;
    const check = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes)
          return done(new NetworkError('NETWORK_TOO_LARGE', `The network ${sha} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body as never), check, createWriteStream(tmp));
      const got = hash.digest('hex');
      if (got !== sha)
        throw new NetworkError('NETWORK_CHECKSUM', `The downloaded network does not match its checksum: sha256 ${got}, the job names ${sha}`);
      await rename(tmp, file);
      return file;
    } catch (err) {
      await rm(tmp, { force: true });
      if (err instanceof NetworkError) throw err;
      throw new NetworkError('NETWORK_UNAVAILABLE', `The network ${sha} could not be downloaded: ${(err as Error).message}`);
    }
  };

  return {
    dir: o.dir,
    /** Downloads started (a network taken from the cache starts none). */
    get downloads() {
      return downloads;
    },
    /** The local path of the job's network, downloaded first unless the cache has it. */
    async path(ref: unknown): Promise<string> {
      const r = ref as Partial<NetworkRef> | null;
      const sha = typeof r?.sha256 === 'string' ? r.sha256.toLowerCase() : '';
      if (!/^[0-9a-f]{64}$/.test(sha)) throw new NetworkError('NETWORK_INVALID', 'network.sha256 must be 64 hexadecimal digits');
      let url: URL;
      try {
        url = new URL(String(r?.url ?? ''), o.serverUrl);
      } catch {
        throw new NetworkError('NETWORK_INVALID', 'network.url must be an absolute http(s) URL (or a path on LAUNCHER_SERVER_URL)');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new NetworkError('NETWORK_INVALID', 'network.url must be an http(s) URL');
      const file = join(o.dir, `${sha}.onnx`);
      if (
        await stat(file).then(
          (s) => s.isFile(),
          () => false,
        )
      )
        return file;
      let p = pending.get(sha);
      if (!p) {
        p = download(sha, url, file).finally(() => pending.delete(sha));
        pending.set(sha, p);
      }
      return p;
    },
  };
}

export type NetworkCache = ReturnType<typeof createNetworkCache>;
