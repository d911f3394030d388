import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { networkSession } from '../../../packages/analysis/src/learned/network.ts';
import { grainImage } from '../../../packages/analysis/src/synth/index.ts';
import { FrameReader } from '../../server/src/modules/jobs/launcher-client.ts';
import { createEngine } from './engine.ts';
import { createNetworkCache } from './network-cache.ts';
import { startLauncher } from './server.ts';
import { createLogger } from './telemetry.ts';
import { analysisTrainer, trainMode } from './training.ts';

type Launcher = Awaited<ReturnType<typeof startLauncher>>;
type Line = { type: string; [k: string]: unknown };

/** A synthetic grain micrograph and its corrected segmentation (255 grain interior, 0 boundary). */
async function grainPair(seed: number, size = 192) {
  const g = await grainImage({ width: size, height: size, grainPx: 30, seed });
  const mask = await sharp(g.png).greyscale().threshold(80).png().toBuffer();
  return { image: g.png, mask };
}

const spec = (over: Record<string, unknown> = {}) => ({
  runId: 'run-1',
  model: 'grain-size',
  baseVersion: '20261201',
  candidateVersion: '20261201-ft1',
  steps: 3,
  seed: 7,
  images: [
    { id: 'a', holdout: false },
    { id: 'b', holdout: true },
  ],
  ...over,
});

/** The multipart body the server sends: `spec`, then image-<id> and mask-<id> per image. */
async function trainBody(s: unknown, files: Record<string, Buffer>, rawSpec?: string) {
  const form = new FormData();
  if (s !== undefined || rawSpec !== undefined) form.append('spec', rawSpec ?? JSON.stringify(s));
  for (const [name, data] of Object.entries(files)) form.append(name, new Blob([data]), name);
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), type: encoded.headers.get('content-type')! };
}

/** POST /train; resolves with the response (and the request, to break it off). */
function postTrain(port: number, body: { body: Buffer; type: string }, headers: Record<string, string> = {}) {
  return new Promise<{ res: IncomingMessage; req: ClientRequest }>((resolve, reject) => {
    const req = httpRequest(`http://127.0.0.1:${port}/train`, {
      method: 'POST',
      headers: { 'content-type': body.type, 'content-length': String(body.body.length), ...headers },
    });
    req.on('response', (res) => resolve({ res, req }));
    req.on('error', reject);
    req.end(body.body);
  });
}

async function json(res: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString()) as { code: string; field?: string; message: string };
}

/** Reads the NDJSON answer with the server's frame reader; `onLine` sees each line as it comes. */
async function readStream(res: IncomingMessage, onLine?: (l: Line) => void) {
  const reader = new FrameReader();
  const lines: Line[] = [];
  const files: Array<{ filename: string; data: Buffer }> = [];
  let open: { filename: string; parts: Buffer[] } | null = null;
  for await (const chunk of res as AsyncIterable<Buffer>)
    for (const f of reader.push(chunk)) {
      if (f.kind === 'data') {
        open!.parts.push(Buffer.from(f.data));
        if (f.last) {
          files.push({ filename: open!.filename, data: Buffer.concat(open!.parts) });
          open = null;
        }
        continue;
      }
      const l = JSON.parse(f.line.toString()) as Line;
      lines.push(l);
      onLine?.(l);
      if (l.type === 'file') {
        open = { filename: String(l.filename), parts: [] };
        reader.expectBytes(Number(l.bytes));
        if (l.bytes === 0) {
          files.push({ filename: open.filename, data: Buffer.alloc(0) });
          open = null;
        }
      }
    }
  return { lines, files };
}

/** Python processes this test process started (the training pipeline runs as a child of the launcher). */
function pythonChildren(): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (Number(fields[1]) === process.pid && comm.startsWith('python')) out.push(Number(d));
    } catch {
      // the process ended while it was read
    }
  }
  return out;
}

const until = async (ok: () => boolean | Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

const health = async (port: number) =>
  (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as {
    canTrain: boolean;
    training: boolean;
    gpu: number;
    busy: boolean;
    slots: number;
  };

describe('POST /train (issue 25): a training run on the launcher', () => {
  const trainer = analysisTrainer();
  let canTrain = false;
  let workRoot: string;
  let launcher: Launcher;
  let netServer: Server;
  let a: Awaited<ReturnType<typeof grainPair>>;
  let b: Awaited<ReturnType<typeof grainPair>>;
  const pairs = () => ({ 'image-a': a.image, 'mask-a': a.mask, 'image-b': b.image, 'mask-b': b.mask });

  beforeAll(async () => {
    canTrain = await trainer.available();
    workRoot = mkdtempSync(join(tmpdir(), 'lamella-train-test-'));
    launcher = await startLauncher({
      port: 0,
      version: 'test',
      engine: createEngine(1),
      logger: createLogger('silent'),
      training: { mode: 'auto', trainer, workRoot },
      gpu: 2,
      networks: createNetworkCache({ dir: `${workRoot}-networks` }),
    });
    // the server's side of a trained base version's download: bytes that are not the network the spec names
    netServer = createServer((_req, res) => void res.writeHead(200).end('not the base network'));
    await new Promise<void>((r) => netServer.listen(0, '127.0.0.1', r));
    [a, b] = await Promise.all([grainPair(1), grainPair(2)]);
  }, 60_000);
  afterAll(async () => {
    await launcher?.close();
    netServer?.close();
    rmSync(workRoot, { recursive: true, force: true });
    rmSync(`${workRoot}-networks`, { recursive: true, force: true });
  });

  it('reports on /health whether it trains (python3 with torch) and its GPU affinity', async () => {
    await until(async () => (await health(launcher.port)).canTrain === canTrain, 30_000);
    const h = await health(launcher.port);
    expect(h).toMatchObject({ canTrain, training: false, gpu: 2, busy: false, slots: 1 });
  }, 40_000);

  it('refuses a bad request with 400, a code and the field, and leaves no work folder', async () => {
    const cases: Array<[string, { body: Buffer; type: string }, string, string]> = [
      ['no spec', await trainBody(undefined, pairs()), 'SPEC_MISSING', 'spec'],
      ['spec not JSON', await trainBody(undefined, pairs(), '{"runId":'), 'INVALID_SPEC', 'spec'],
      ['no run id', await trainBody(spec({ runId: '' }), pairs()), 'INVALID_RUN_ID', 'spec.runId'],
      ['a model it does not train', await trainBody(spec({ model: 'pores' }), pairs()), 'INVALID_MODEL', 'spec.model'],
      ['an unknown base version', await trainBody(spec({ baseVersion: '19990101' }), pairs()), 'INVALID_BASE_VERSION', 'spec.baseVersion'],
      ['candidate = base', await trainBody(spec({ candidateVersion: '20261201' }), pairs()), 'INVALID_CANDIDATE_VERSION', 'spec.candidateVersion'],
      ['0 steps', await trainBody(spec({ steps: 0 }), pairs()), 'INVALID_STEPS', 'spec.steps'],
      ['steps not whole', await trainBody(spec({ steps: 2.5 }), pairs()), 'INVALID_STEPS', 'spec.steps'],
      ['a negative seed', await trainBody(spec({ seed: -1 }), pairs()), 'INVALID_SEED', 'spec.seed'],
      ['no images', await trainBody(spec({ images: [] }), {}), 'INVALID_IMAGES', 'spec.images'],
      [
        'only held-out images',
        await trainBody(spec({ images: [{ id: 'a', holdout: true }] }), { 'image-a': a.image, 'mask-a': a.mask }),
        'INVALID_IMAGES',
        'spec.images',
      ],
      [
        'no held-out image',
        await trainBody(spec({ images: [{ id: 'a', holdout: false }] }), { 'image-a': a.image, 'mask-a': a.mask }),
        'INVALID_IMAGES',
        'spec.images',
      ],
      [
        'an image twice',
        await trainBody(
          spec({
            images: [
              { id: 'a', holdout: false },
              { id: 'a', holdout: true },
            ],
          }),
          pairs(),
        ),
        'INVALID_IMAGES',
        'spec.images[1].id',
      ],
      [
        'an id with a path in it',
        await trainBody(spec({ images: [{ id: '../x', holdout: false }] }), pairs()),
        'INVALID_IMAGES',
        'spec.images[0].id',
      ],
      ['holdout not boolean', await trainBody(spec({ images: [{ id: 'a', holdout: 'no' }] }), pairs()), 'INVALID_IMAGES', 'spec.images[0].holdout'],
      ['a missing mask', await trainBody(spec(), { 'image-a': a.image, 'mask-a': a.mask, 'image-b': b.image }), 'MISSING_MASK_FILE', 'mask-b'],
      ['a missing image', await trainBody(spec(), { 'mask-a': a.mask, 'image-b': b.image, 'mask-b': b.mask }), 'MISSING_IMAGE_FILE', 'image-a'],
      ['a mask that is no PNG', await trainBody(spec(), { ...pairs(), 'mask-b': Buffer.from('not a png') }), 'INVALID_MASK_FILE', 'mask-b'],
      ['an image that is no image', await trainBody(spec(), { ...pairs(), 'image-a': Buffer.from('plain text') }), 'INVALID_IMAGE_FILE', 'image-a'],
      ['a file of no image in the spec', await trainBody(spec(), { ...pairs(), 'image-c': a.image }), 'UNEXPECTED_FILE', 'image-c'],
      ['a file field of another name', await trainBody(spec(), { ...pairs(), network: a.image }), 'UNEXPECTED_FILE', 'network'],
    ];
    for (const [what, body, code, field] of cases) {
      const { res } = await postTrain(launcher.port, body);
      const answer = await json(res);
      expect({ what, status: res.statusCode, code: answer.code, field: answer.field }).toEqual({ what, status: 400, code, field });
      expect(answer.message.length).toBeGreaterThan(10);
      expect(readdirSync(workRoot), what).toEqual([]);
    }
    // not multipart at all
    const res = await fetch(`http://127.0.0.1:${launcher.port}/train`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('SPEC_MISSING');
    expect(readdirSync(workRoot)).toEqual([]);
    expect((await health(launcher.port)).training).toBe(false);
  }, 60_000);

  it("refuses what the pipeline's own checks refuse, naming the request's file: a mask of another size, a mask without boundaries", async (ctx) => {
    if (!canTrain) ctx.skip();
    const small = await sharp(b.mask).resize(100, 100).png().toBuffer();
    const blank = await sharp({ create: { width: 192, height: 192, channels: 3, background: '#fff' } })
      .greyscale()
      .png()
      .toBuffer();
    for (const [mask, detail] of [
      [small, '100×100'],
      [blank, 'no boundary'],
    ] as const) {
      const { res } = await postTrain(launcher.port, await trainBody(spec(), { ...pairs(), 'mask-b': mask }));
      const answer = await json(res);
      expect({ status: res.statusCode, code: answer.code, field: answer.field }).toEqual({ status: 400, code: 'INVALID_MASK_FILE', field: 'mask-b' });
      expect(answer.message).toContain(detail);
      expect(answer.message).not.toContain(workRoot);
      expect(readdirSync(workRoot)).toEqual([]);
    }
  }, 60_000);

  it("refuses a trained base version whose network's download does not match its sha256 (502 NETWORK_CHECKSUM)", async (ctx) => {
    if (!canTrain) ctx.skip();
    const address = netServer.address() as AddressInfo;
    const baseNetwork = { sha256: 'ab'.repeat(32), url: `http://127.0.0.1:${address.port}/api/networks/base` };
    const { res } = await postTrain(
      launcher.port,
      await trainBody(spec({ baseVersion: '20261201-ft1', candidateVersion: '20261201-ft2', baseNetwork }), pairs()),
    );
    const answer = await json(res);
    expect({ status: res.statusCode, code: answer.code, field: answer.field }).toEqual({
      status: 502,
      code: 'NETWORK_CHECKSUM',
      field: 'spec.baseNetwork',
    });
    expect(readdirSync(workRoot)).toEqual([]);
    // a trained base version without its network is a wrong spec
    const { res: without } = await postTrain(
      launcher.port,
      await trainBody(spec({ baseVersion: '20261201-ft1', candidateVersion: '20261201-ft2' }), pairs()),
    );
    expect(without.statusCode).toBe(400);
    expect((await json(without)).code).toBe('INVALID_BASE_VERSION');
  }, 60_000);

  it('ends with an error line when the pipeline fails (a base network that is no ONNX file), python gone and the folder removed', async (ctx) => {
    if (!canTrain) ctx.skip();
    const address = netServer.address() as AddressInfo;
    const junk = createHash('sha256').update('not the base network').digest('hex');
    const baseNetwork = { sha256: junk, url: `http://127.0.0.1:${address.port}/api/networks/junk` };
    const { res } = await postTrain(
      launcher.port,
      await trainBody(spec({ baseVersion: '20261201-ft1', candidateVersion: '20261201-ft2', baseNetwork }), pairs()),
    );
    expect(res.statusCode).toBe(200);
    const { lines, files: sent } = await readStream(res);
    expect(lines[0].type).toBe('started');
    expect(lines.at(-1)).toMatchObject({ type: 'error', code: 'TRAINING_FAILED' });
    expect(String(lines.at(-1)!.message)).toMatch(/onnx|network/i);
    expect(sent).toEqual([]);
    expect(pythonChildren()).toEqual([]);
    expect(readdirSync(workRoot)).toEqual([]);
  }, 120_000);

  it('trains a few steps: started, progress in order, network.onnx, then done with the card and the validation', async (ctx) => {
    if (!canTrain) ctx.skip();
    const body = await trainBody(spec({ steps: 4 }), pairs());
    const { res } = await postTrain(launcher.port, body, { 'x-heartbeat-ms': '200' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson');
    let during: Awaited<ReturnType<typeof health>> | null = null;
    const { lines, files: sent } = await readStream(res, (l) => {
      if (l.type === 'progress' && !during) void health(launcher.port).then((h) => (during = h));
    });
    const kinds = lines.map((l) => l.type).filter((t) => t !== 'heartbeat');
    expect(kinds[0]).toBe('started');
    expect(lines[0]).toEqual({ type: 'started', runId: 'run-1' });
    expect(kinds.at(-1)).toBe('done');
    expect(kinds.at(-2)).toBe('file');
    const progress = lines.filter((l) => l.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.step)).toEqual([...progress.map((p) => p.step as number)].sort((x, y) => x - y));
    expect(progress.at(-1)).toMatchObject({ step: 4, steps: 4 });
    for (const p of progress) {
      expect(p.steps).toBe(4);
      for (const k of ['loss', 'elapsedS', 'etaS']) expect(Number.isFinite(p[k])).toBe(true);
    }
    // the network is a file frame the server's reader takes; ONNX Runtime loads it
    expect(sent.map((f) => f.filename)).toEqual(['network.onnx']);
    expect(sent[0].data.length).toBe(lines.find((l) => l.type === 'file')!.bytes);
    const dir = mkdtempSync(join(tmpdir(), 'lamella-train-net-'));
    try {
      writeFileSync(join(dir, 'network.onnx'), sent[0].data);
      const session = await networkSession(join(dir, 'network.onnx'));
      expect(session.inputNames).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const done = lines.at(-1)!;
    expect(done.card).toBeTypeOf('object');
    // validated on the held-out image only, candidate against base
    const validation = done.validation as { images: Array<{ id: string; base: { fScore: number }; candidate: { fScore: number } }>; total: unknown };
    expect(validation.images.map((im) => im.id)).toEqual(['b']);
    for (const side of ['base', 'candidate'] as const) expect(validation.images[0][side].fScore).toBeGreaterThanOrEqual(0);
    expect(validation.total).toMatchObject({ base: { fScore: expect.any(Number) }, candidate: { fScore: expect.any(Number) } });
    expect(during).toMatchObject({ training: true });
    expect(readdirSync(workRoot)).toEqual([]);
    await until(async () => !(await health(launcher.port)).training, 5000);
  }, 600_000);

  it('is busy while a run is in progress (503 BUSY), and a dispatcher that goes away stops the run: python killed, folder gone', async (ctx) => {
    if (!canTrain) ctx.skip();
    const { res, req } = await postTrain(launcher.port, await trainBody(spec({ runId: 'run-long', steps: 50_000 }), pairs()));
    expect(res.statusCode).toBe(200);
    const reader = new FrameReader();
    const seen: string[] = [];
    res.on('data', (c: Buffer) => {
      for (const f of reader.push(c)) if (f.kind === 'line') seen.push((JSON.parse(f.line.toString()) as Line).type);
    });
    await until(() => seen.includes('progress'), 300_000);
    const pids = pythonChildren();
    expect(pids.length).toBeGreaterThan(0);
    expect((await health(launcher.port)).training).toBe(true);

    const second = await postTrain(launcher.port, await trainBody(spec({ runId: 'run-2' }), pairs()));
    expect(second.res.statusCode).toBe(503);
    expect((await json(second.res)).code).toBe('BUSY');

    req.destroy();
    await until(() => pids.every((pid) => !readdirSync('/proc').includes(String(pid))), 30_000);
    await until(async () => !(await health(launcher.port)).training, 10_000);
    expect(readdirSync(workRoot)).toEqual([]);
    expect(seen).not.toContain('done');
  }, 600_000);
});

describe('a launcher that does not train: 409 TRAINING_UNAVAILABLE', () => {
  let off: Launcher;
  let noTorch: Launcher;
  let workRoot: string;
  let pair: Awaited<ReturnType<typeof grainPair>>;
  beforeAll(async () => {
    workRoot = mkdtempSync(join(tmpdir(), 'lamella-train-test-'));
    const engine = createEngine(1);
    off = await startLauncher({
      port: 0,
      version: 'test',
      engine,
      logger: createLogger('silent'),
      training: { mode: trainMode('off'), trainer: analysisTrainer(), workRoot },
    });
    // a python without torch (here: no python at all at that path)
    noTorch = await startLauncher({
      port: 0,
      version: 'test',
      engine: createEngine(1),
      logger: createLogger('silent'),
      training: { mode: trainMode('auto'), trainer: analysisTrainer(join(workRoot, 'no-such-python3')), workRoot },
    });
    pair = await grainPair(3, 96);
  }, 60_000);
  afterAll(async () => {
    await off?.close();
    await noTorch?.close();
    rmSync(workRoot, { recursive: true, force: true });
  });

  it('LAUNCHER_TRAIN=off: health says canTrain false, gpu 0, and POST /train is refused with 409', async () => {
    expect(await health(off.port)).toMatchObject({ canTrain: false, training: false, gpu: 0 });
    const { res } = await postTrain(
      off.port,
      await trainBody(spec(), { 'image-a': pair.image, 'mask-a': pair.mask, 'image-b': pair.image, 'mask-b': pair.mask }),
    );
    expect(res.statusCode).toBe(409);
    const body = await json(res);
    expect(body.code).toBe('TRAINING_UNAVAILABLE');
    expect(body.message).toContain('LAUNCHER_TRAIN=off');
    expect(readdirSync(workRoot)).toEqual([]);
  });

  it('no python with torch: canTrain false and a valid run is refused with 409', async () => {
    expect((await health(noTorch.port)).canTrain).toBe(false);
    const { res } = await postTrain(
      noTorch.port,
      await trainBody(spec(), { 'image-a': pair.image, 'mask-a': pair.mask, 'image-b': pair.image, 'mask-b': pair.mask }),
    );
    expect(res.statusCode).toBe(409);
    const body = await json(res);
    expect(body.code).toBe('TRAINING_UNAVAILABLE');
    expect(body.message).toContain('torch');
    expect(readdirSync(workRoot)).toEqual([]);
  });

  it('LAUNCHER_TRAIN takes auto or off only', () => {
    expect(trainMode(undefined)).toBe('auto');
    expect(trainMode('OFF')).toBe('off');
    expect(() => trainMode('yes')).toThrow(/LAUNCHER_TRAIN/);
  });
});
