import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grainImage } from '../../../packages/analysis/src/synth/index.ts';
import { ModelError, runOnLauncher } from '../../server/src/modules/jobs/launcher-client.ts';
import { createEngine } from './engine.ts';
import { createNetworkCache } from './network-cache.ts';
import { startLauncher } from './server.ts';
import { createLogger } from './telemetry.ts';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const shipped = readFileSync(fileURLToPath(new URL('../../../packages/analysis/models/grain-boundaries.onnx', import.meta.url)));
const notANetwork = Buffer.from('these bytes are no ONNX network, but their checksum is right');
const TOKEN = 'lrt_test-registration-token';

/** The Lamella server's side of the download: serves network files to a launcher that shows its token, counting requests. */
async function networkServer(files: Record<string, Buffer>) {
  const hits: Array<{ path: string; authorization: string | undefined }> = [];
  const server: Server = createServer((req, res) => {
    hits.push({ path: req.url ?? '', authorization: req.headers.authorization });
    const body = files[req.url ?? ''];
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return void res.writeHead(401).end('{"code":"UNAUTHORIZED"}');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(body.length) }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { url, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('jobs with a trained network (issue 25): downloaded once, checked, cached', () => {
  let files: Awaited<ReturnType<typeof networkServer>>;
  let launcher: Awaited<ReturnType<typeof startLauncher>>;
  let cacheDir: string;
  let cache: ReturnType<typeof createNetworkCache>;
  let image: Buffer;
  // a trained version's label is sent as the job's version (the server's jobs.model_version)
  const job = (network: unknown, jobId: string, version = '20261201-ft1') =>
    runOnLauncher(
      `http://127.0.0.1:${launcher.port}`,
      { jobId, model: 'grain-size', version, settings: {}, crop: null, language: 'en', network } as never,
      image,
      null,
      { timeoutMs: 120_000, heartbeatMs: 200 },
    );

  beforeAll(async () => {
    files = await networkServer({
      '/networks/good': shipped,
      '/networks/tampered': Buffer.concat([shipped, Buffer.from([0])]),
      '/networks/junk': notANetwork,
    });
    cacheDir = mkdtempSync(join(tmpdir(), 'lamella-netcache-test-'));
    cache = createNetworkCache({ dir: cacheDir, serverUrl: files.url, token: TOKEN });
    launcher = await startLauncher({ port: 0, version: 'test', engine: createEngine(1), logger: createLogger('silent'), networks: cache });
    image = (await grainImage({ width: 320, height: 240, grainPx: 36, seed: 3 })).png;
  }, 60_000);
  afterAll(async () => {
    await launcher?.close();
    await files?.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('downloads the network once with the launcher token, keeps it as <sha256>.onnx, runs the trained version (its label as the job version) in the shipped engine, and the second job uses the cache', async () => {
    const net = { sha256: sha(shipped), url: '/networks/good' };
    const first = await job(net, 'job-1');
    expect(first.measurements.segmentation).toBe('learned');
    expect(first.measurements.grainsInside).toBeGreaterThan(20);
    expect(files.hits).toEqual([{ path: '/networks/good', authorization: `Bearer ${TOKEN}` }]);
    expect(readdirSync(cacheDir)).toEqual([`${sha(shipped)}.onnx`]);
    expect(readFileSync(join(cacheDir, `${sha(shipped)}.onnx`)).equals(shipped)).toBe(true);

    // the same network (upper-case sha, an absolute url this time): no second download, the same result (the trained
    // label runs in the engine it was trained from, 20261201, not in the newest shipped one)
    const second = await job({ sha256: sha(shipped).toUpperCase(), url: `${files.url}/networks/good` }, 'job-2', '20261201');
    expect(files.hits).toHaveLength(1);
    expect(cache.downloads).toBe(1);
    expect(second.measurements).toEqual(first.measurements);
  }, 180_000);

  it('refuses a download whose bytes do not hash to the sha256 of the job: NETWORK_CHECKSUM, nothing kept', async () => {
    const claimed = sha(Buffer.from('the network the server meant'));
    const err = await job({ sha256: claimed, url: '/networks/tampered' }, 'job-3').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).code).toBe('NETWORK_CHECKSUM');
    expect((err as ModelError).message).toContain(claimed);
    // no file of that sha and no temporary file left behind
    expect(readdirSync(cacheDir)).toEqual([`${sha(shipped)}.onnx`]);
  }, 60_000);

  it('runs the model with the downloaded network, not the shipped one: a file that is no network fails the job', async () => {
    const err = await job({ sha256: sha(notANetwork), url: '/networks/junk' }, 'job-4').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).code).toBe('ANALYSIS_FAILED');
    expect(readdirSync(cacheDir).sort()).toEqual([`${sha(shipped)}.onnx`, `${sha(notANetwork)}.onnx`].sort());
  }, 60_000);

  it('fails a job whose network is unknown to the server (NETWORK_UNAVAILABLE) or badly named (NETWORK_INVALID)', async () => {
    const missing = await job({ sha256: sha(Buffer.from('nothing')), url: '/networks/none' }, 'job-5').catch((e: unknown) => e);
    expect((missing as ModelError).code).toBe('NETWORK_UNAVAILABLE');
    expect((missing as ModelError).message).toContain('404');
    const invalid = await job({ sha256: 'not-a-sha', url: '/networks/good' }, 'job-6').catch((e: unknown) => e);
    expect((invalid as ModelError).code).toBe('NETWORK_INVALID');
    expect((invalid as ModelError).message).toContain('network.sha256');
  }, 60_000);
});
