import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { startTestApp, type TestApp } from './test-app.ts';
import { poresImage } from './synthetic.ts';

/**
 * Issue 27 item 2: the Python client (clients/python, standard library only) against the real server on its port
 * with a real launcher, run by Debian's /usr/bin/python3: upload a folder, analyse, wait, results, export, objects.
 */
const run = promisify(execFile);
const client = join(import.meta.dirname, '../../../clients/python');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ launchers: 1 });
  await t.launchersReady();
}, 180_000);
afterAll(() => t?.close());

describe('the Python client', () => {
  it('its dataclasses are generated from the committed API document (generate.py --check)', async () => {
    const { stdout } = await run('/usr/bin/python3', [join(client, 'generate.py'), '--check']);
    expect(stdout).toMatch(/current/);
  });

  it('analyses a folder with an access key: upload, analyse, wait, results, export, objects', async () => {
    const u = await t.signupVerified();
    const key = (await u.client.post('/api/access-keys', { name: 'python' })).body.code as string;
    const dir = await mkdtemp(join(tmpdir(), 'lamella-py-'));
    for (const [i, count] of [12, 20].entries())
      await writeFile(join(dir, `field-${i + 1}.png`), (await poresImage({ width: 480, height: 360, count, r: 10 })).png);
    const script = `
import csv, glob, json, sys
sys.path.insert(0, ${JSON.stringify(client)})
from lamella import Client, ApiError
lamella = Client(sys.argv[1], key=sys.argv[2])
images = lamella.upload(sorted(glob.glob(sys.argv[3] + "/*.png")), pixel_size_um=0.5)
jobs = lamella.wait(lamella.analyse([i.id for i in images], model="porosity"), interval=0.5, timeout=150)
lamella.export(jobs, sys.argv[3] + "/jobs.csv")
rows = []
for job in jobs:
    result = lamella.results(job)
    rows.append({"image": job.image["orginalFilename"], "status": job.status, "files": result.files, "pixelSizeUm": result.measurements.get("pixelSizeUm")})
lamella.objects(jobs[0], sys.argv[3] + "/rois.zip", "rois.zip")
try:
    lamella.job("00000000-0000-0000-0000-000000000000")
except ApiError as e:
    rows.append({"error": [e.status, e.code]})
print(json.dumps(rows))
`;
    await writeFile(join(dir, 'run.py'), script);
    const { stdout } = await run('/usr/bin/python3', [join(dir, 'run.py'), t.baseUrl, key, dir], { timeout: 170_000 });
    const rows = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(rows.slice(0, 2).map((r: { image: string; status: string }) => [r.image, r.status])).toEqual([
      ['field-1.png', 'FINISHED'],
      ['field-2.png', 'FINISHED'],
    ]);
    expect(rows[0].files).toContain('segmentation.png');
    expect(rows[0].pixelSizeUm).toBe(0.5);
    expect(rows[2].error).toEqual([404, 'NOT_FOUND']);
    const csv = (await readFile(join(dir, 'jobs.csv'), 'utf8')).replace('\uFEFF', '').trim().split('\r\n');
    expect(csv).toHaveLength(3);
    const zip = await JSZip.loadAsync(await readFile(join(dir, 'rois.zip')));
    expect(Object.keys(zip.files).length).toBeGreaterThanOrEqual(10);
    // the key's requests were counted
    const [listed] = (await u.client.get('/api/access-keys')).body;
    expect(listed.requestCount).toBeGreaterThan(5);
  }, 200_000);
});

/** Issue 27 item 3, the other client of the same server: `lamella analyse --server URL --key …` on a folder. */
describe('npx lamella analyse --server', () => {
  const bin = join(import.meta.dirname, '../../../packages/analysis/bin/lamella.mjs');

  it('runs a folder on the server with an access key: one CSV row per image and the per-field statistics', async () => {
    const u = await t.signupVerified();
    const key = (await u.client.post('/api/access-keys', { name: 'cli' })).body.code as string;
    const dir = await mkdtemp(join(tmpdir(), 'lamella-cli-server-'));
    for (const [i, count] of [10, 16].entries())
      await writeFile(join(dir, `f${i + 1}.png`), (await poresImage({ width: 400, height: 300, count, r: 9 })).png);
    const out = join(dir, 'out.csv');
    const { stderr } = await run(
      process.execPath,
      [bin, 'analyse', dir, '--model', 'porosity', '--calibration', '0.5', '--server', t.baseUrl, '--key', key, '--out', out],
      { timeout: 170_000 },
    );
    expect(stderr).toMatch(/2 analysed, 0 failed/);
    const lines = (await readFile(out, 'utf8')).trim().split('\r\n');
    expect(lines[1]).toMatch(/^f1\.png,FINISHED,/);
    expect(lines[2]).toMatch(/^f2\.png,FINISHED,/);
    expect(lines.some((l) => l.startsWith('pixelSizeUm,2,0.5,0,0.5,0.5'))).toBe(true);
    // the images and jobs are the user's, made through the key
    const jobs = (await u.client.get('/api/jobs')).body as Array<{ status: string }>;
    expect(jobs.filter((j) => j.status === 'FINISHED')).toHaveLength(2);
    // a wrong key: exit status 1 and the server's message, nothing uploaded
    const err = await run(process.execPath, [bin, 'analyse', dir, '--model', 'porosity', '--server', t.baseUrl, '--key', 'lam_wrong']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((err as { code: number }).code).not.toBe(0);
    expect((await u.client.get('/api/jobs')).body).toHaveLength(2);
  }, 200_000);
});
