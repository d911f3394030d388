import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * `Server-Timing` (W3C) for the phases a handler chooses to time, e.g. an upload's receive / renditions / store
 * (bench:pipeline reads them; browsers show them in their network panel). Costs nothing on requests that time
 * nothing.
 */
declare module 'fastify' {
  interface FastifyRequest {
    serverTiming: Array<[string, number]> | null;
  }
}

export function registerServerTiming(app: FastifyInstance): void {
  app.decorateRequest('serverTiming', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.serverTiming?.length)
      reply.header('server-timing', request.serverTiming.map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', '));
    return payload;
  });
}

/** Adds `ms` to the phase `name` of this request's Server-Timing header. */
export function recordTiming(request: FastifyRequest, name: string, ms: number): void {
  const timings = (request.serverTiming ??= []);
  const entry = timings.find(([n]) => n === name);
  if (entry) entry[1] += ms;
  else timings.push([name, ms]);
}

/** Parses a Server-Timing header into {name: ms}. */
export function parseServerTiming(header: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = params.map((p) => /^\s*dur=([\d.]+)/.exec(p)).find(Boolean);
    if (name && dur) out[name] = Number(dur[1]);
  }
  return out;
}
