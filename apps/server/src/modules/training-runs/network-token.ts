import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signed address of a trained network (the `network.url` of a job spec, `baseNetwork.url` of a training spec):
 * `?token=<expiry>.<HMAC-SHA256(secret, sha256:expiry)>`, so a launcher fetches exactly that file for a while with
 * no account of its own. SESSION_SECRET signs it (with several replicas it must be set alike on each).
 */
const DEFAULT_TTL_MS = 6 * 60 * 60_000;

const mac = (secret: string, sha256: string, expiry: number) => createHmac('sha256', secret).update(`network:${sha256}:${expiry}`).digest('hex');

export function networkToken(secret: string, sha256: string, ttlMs = DEFAULT_TTL_MS, now = Date.now()): string {
  const expiry = Math.floor((now + ttlMs) / 1000);
  return `${expiry}.${mac(secret, sha256, expiry)}`;
}

export function checkNetworkToken(secret: string, sha256: string, token: string | undefined, now = Date.now()): boolean {
  if (!token) return false;
  const m = /^(\d{1,12})\.([0-9a-f]{64})$/.exec(token);
  if (!m) return false;
  const expiry = Number(m[1]);
  if (expiry * 1000 < now) return false;
  const want = Buffer.from(mac(secret, sha256, expiry), 'hex');
  const got = Buffer.from(m[2], 'hex');
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The path of a network below the server's address (the route of trainingApi.network). */
export const networkPath = (sha256: string, secret: string) => `/api/launchers/networks/${sha256}?token=${networkToken(secret, sha256)}`;
