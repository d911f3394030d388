/**
 * Joining a Lamella server by itself: with LAUNCHER_SERVER_URL and LAUNCHER_REGISTRATION_TOKEN (created on the
 * Servers screen for this machine's server) the launcher registers as one of that server's launchers
 * (POST /api/launchers/register) once it listens, and again every `everyMs` so an entry removed by mistake
 * comes back. A refused token (revoked) is final; an unreachable server is retried with backoff.
 */
export interface RegistrationOptions {
  serverUrl: string;
  token: string;
  port: number;
  version: string;
  slots: number;
  /** The address to advertise (LAUNCHER_ADVERTISE_HOST); must be the server entry's IP when given. */
  host?: string;
  log: (message: string) => void;
}

export class RegistrationRefused extends Error {}

/** Registers once; RegistrationRefused when the server refuses (bad or revoked token, wrong port or host). */
export async function registerOnce(o: RegistrationOptions): Promise<{ executorId: string; url: string; reachable: boolean }> {
  const res = await fetch(`${o.serverUrl.replace(/\/$/, '')}/api/launchers/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${o.token}` },
    body: JSON.stringify({ port: o.port, version: o.version, slots: o.slots, ...(o.host ? { host: o.host } : {}) }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json().catch(() => ({}))) as { executorId?: string; url?: string; reachable?: boolean; code?: string; message?: string };
  if (res.status >= 400 && res.status < 500) throw new RegistrationRefused(`${res.status} ${body.code ?? ''}: ${body.message ?? ''}`);
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return { executorId: body.executorId ?? '', url: body.url ?? '', reachable: body.reachable === true };
}

/** Registers now (retrying while the server is unreachable), then every `everyMs`; `stop()` ends it. */
export function keepRegistered(o: RegistrationOptions, everyMs: number, onRefused: (err: RegistrationRefused) => void) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let failures = 0;
  const attempt = async () => {
    if (stopped) return;
    try {
      const r = await registerOnce(o);
      if (failures > 0 || !r.reachable)
        o.log(`registered as launcher ${r.executorId} (${r.url})${r.reachable ? '' : ': the server could not reach it yet'}`);
      else if (timer === null) o.log(`registered as launcher ${r.executorId} (${r.url})`);
      failures = 0;
      timer = setTimeout(attempt, everyMs);
    } catch (err) {
      if (err instanceof RegistrationRefused) {
        o.log(`registration refused: ${err.message}`);
        return onRefused(err);
      }
      failures += 1;
      const delay = Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5));
      o.log(`registration failed (${err instanceof Error ? err.message : String(err)}); retrying in ${delay / 1000} s`);
      timer = setTimeout(attempt, delay);
    }
    timer?.unref();
  };
  void attempt();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
