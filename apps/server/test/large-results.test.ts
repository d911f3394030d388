/**
 * Issue 28 item 1: results of any size stream from the launcher to storage. A real launcher (apps/launcher's
 * HTTP service, in this process) runs an engine that answers a result of ~66 MB (a 64 MB file and a 2 MB
 * result line): the job finishes in one attempt with every byte stored, under a job lease much shorter than
 * the transfer takes on a loaded machine (any bytes received are a sign of life). A result above MAX_RESULT_MB
 * fails its job at once with RESULT_TOO_LARGE (no second attempt) and leaves no file behind. A launcher of an
 * earlier version (base64 files inside the result line) is still understood.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as analysis from '@lamella/analysis';
import { startLauncher } from '../../launcher/src/server.ts';
import type { Engine } from '../../launcher/src/engine.ts';
import { computeModels, executors, nodes, results } from '../src/platform/db/schema/index.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';
import { jobRow, settled, upload } from './lease-helpers.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const MB = 1024 * 1024;

/** An engine whose every run answers `fileBytes` of random data and a result line of about `lineBytes`. */
function bigEngine(fileBytes: number, lineBytes: number): Engine & { last: { file: Buffer; values: number[] } | null } {
  const engine = {
    slots: 1,
    last: null as { file: Buffer; values: number[] } | null,
    models: () => analysis.models.map((m) => ({ name: m.name, versions: [...m.versions] })),
    async run() {
      const file = randomBytes(fileBytes);
      const values = Array.from({ length: Math.ceil(lineBytes / 8) }, (_, i) => i % 1_000_000);
      engine.last = { file, values };
      return { items: [], measurements: { values }, files: [{ filename: 'noise.bin', data: file }] };
    },
    close: async () => undefined,
  };
  return engine;
}

async function addLauncher(t: TestApp, port: number) {
  const [node] = await t.db
    .insert(nodes)
    .values({ name: `big-${port}`, ip: '127.0.0.1', description: 'launcher with a large result' })
    .returning();
  await t.db.insert(executors).values({ nodeId: node.id, port, version: 'test' });
  await t.launchersReady();
}

async function startJob(t: TestApp) {
  const u = await t.signupVerified();
  const { png } = await poresImage({ width: 320, height: 240, count: 5, r: 8, seed: Math.floor(Math.random() * 1e6) });
  const imageId = await upload(u.client, png, 'big.png');
  const [{ id: model }] = await t.db.select({ id: computeModels.id }).from(computeModels).where(eq(computeModels.internalName, 'porosity'));
  const res = await u.client.post('/api/jobs', { imageIds: [imageId], modelIds: [model] });
  expect(res.status).toBe(200);
  return { u, jobId: res.body[0].id as string };
}

describe('a large result from a real launcher', () => {
  let t: TestApp;
  let launcher: Awaited<ReturnType<typeof startLauncher>>;
  const engine = bigEngine(64 * MB, 2 * MB);
  beforeAll(async () => {
    // a lease of 4 s: receiving and storing ~66 MB takes longer on a loaded machine, and only whole lines
    // counting as signs of life would fail it
    t = await startTestApp({ env: { JOB_LEASE_SECONDS: '4' } });
    launcher = await startLauncher({ port: 0, version: 'test', engine, logger: silent() });
    await addLauncher(t, launcher.port);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await launcher?.close();
  });

  it('finishes in one attempt, the file streamed into storage byte for byte and the result line read whole', async () => {
    const { u, jobId } = await startJob(t);
    const done = await settled(u.client, jobId, 180_000);
    expect(done.status, String(done.error)).toBe('FINISHED');
    const row = await jobRow(t, jobId);
    expect(row.attempts).toBe(1);
    const [result] = await t.db.select().from(results).where(eq(results.id, row.resultId!));
    expect(Object.keys(result.files)).toEqual(['noise.bin']);
    const stored = await t.storage.get(result.files['noise.bin']);
    expect(stored.length).toBe(64 * MB);
    expect(sha(stored)).toBe(sha(engine.last!.file));
    expect((result.measurements as { values: number[] }).values).toEqual(engine.last!.values);
    // the file is served to its owner as stored
    const file = await fetch(`${t.baseUrl}/api/jobs/results/${row.resultId}/noise.bin`, { headers: { cookie: cookieOf(u.client) } });
    expect(file.status).toBe(200);
    expect(sha(Buffer.from(await file.arrayBuffer()))).toBe(sha(engine.last!.file));
  }, 240_000);
});

describe('a result above MAX_RESULT_MB', () => {
  let t: TestApp;
  let launcher: Awaited<ReturnType<typeof startLauncher>>;
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_RESULT_MB: '8' } });
    launcher = await startLauncher({ port: 0, version: 'test', engine: bigEngine(16 * MB, 1000), logger: silent() });
    await addLauncher(t, launcher.port);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await launcher?.close();
  });

  it('fails its job at once with RESULT_TOO_LARGE, without a second attempt or a file left in storage', async () => {
    const { u, jobId } = await startJob(t);
    const done = await settled(u.client, jobId, 120_000);
    expect(done.status).toBe('FAILED');
    const row = await jobRow(t, jobId);
    expect(row.attempts).toBe(1);
    expect(row.error).toMatch(/^RESULT_TOO_LARGE: the result is larger than the maximum of 8 MB \(MAX_RESULT_MB\)/);
    const error = await u.client.get(`/api/jobs/${jobId}/error`);
    expect(error.status).toBe(200);
    expect(error.body.error).toMatch(/RESULT_TOO_LARGE/);
    expect(await t.db.select().from(results)).toEqual([]);
    expect(await filesUnder(t, 'results')).toEqual([]);
  }, 180_000);
});

describe('a launcher of an earlier version (base64 files in the result line)', () => {
  let t: TestApp;
  let old: Server;
  const data = randomBytes(300_000);
  beforeAll(async () => {
    old = createServer((req, res) => {
      if (req.url === '/health') {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            status: 'ok',
            version: 'old',
            models: analysis.models.map((m) => ({ name: m.name, versions: [...m.versions] })),
            busy: false,
            slots: 1,
          }),
        );
        return;
      }
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(JSON.stringify({ type: 'started' }) + '\n');
        res.end(
          JSON.stringify({ type: 'result', items: [], measurements: { n: 1 }, files: [{ filename: 'old.bin', data: data.toString('base64') }] }) +
            '\n',
        );
      });
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', () => r()));
    t = await startTestApp();
    await addLauncher(t, (old.address() as { port: number }).port);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    old?.close();
  });

  it('has its files stored as before', async () => {
    const { u, jobId } = await startJob(t);
    const done = await settled(u.client, jobId, 60_000);
    expect(done.status).toBe('FINISHED');
    const row = await jobRow(t, jobId);
    const [result] = await t.db.select().from(results).where(eq(results.id, row.resultId!));
    expect(sha(await t.storage.get(result.files['old.bin']))).toBe(sha(data));
  }, 120_000);
});

function silent() {
  const noop = () => undefined;
  const log = { info: noop, warn: noop, debug: noop, error: noop, child: () => log };
  return log as never;
}

function cookieOf(client: { cookies: Map<string, string> }): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}

async function filesUnder(t: TestApp, dir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  return readdir(join(t.dataDir, 'files', dir), { recursive: true }).catch(() => []);
}
