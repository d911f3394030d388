import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { statistics, toCsv, type Row } from './batch-cli.js';

const run = promisify(execFile);
const bin = join(import.meta.dirname, '../bin/lamella.mjs');

/** A grey field with `count` dark round pores. */
async function pores(count: number): Promise<Buffer> {
  const w = 320;
  const h = 240;
  const px = Buffer.alloc(w * h, 200);
  for (let k = 0; k < count; k++) {
    const cx = 30 + (k % 6) * 50;
    const cy = 30 + Math.floor(k / 6) * 50;
    for (let y = cy - 9; y <= cy + 9; y++) for (let x = cx - 9; x <= cx + 9; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= 81) px[y * w + x] = 40;
  }
  return sharp(px, { raw: { width: w, height: h, channels: 1 } })
    .png()
    .toBuffer();
}

describe('npx lamella analyse (issue 27 item 3)', () => {
  it('--help names every option', async () => {
    const { stdout } = await run(process.execPath, [bin, 'analyse', '--help']);
    for (const o of ['--model', '--calibration', '--server', '--key', '--out', '--version', '--lang', '--concurrency']) expect(stdout).toContain(o);
  });

  it('analyses a folder on the embedded engine into one CSV row per image and per-field statistics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lamella-cli-'));
    writeFileSync(join(dir, 'a.png'), await pores(6));
    writeFileSync(join(dir, 'b.png'), await pores(12));
    writeFileSync(join(dir, 'notes.txt'), 'not an image');
    const out = join(dir, 'out.csv');
    const { stderr } = await run(process.execPath, [bin, 'analyse', dir, '--model', 'porosity', '--calibration', '0.5', '--out', out], {
      timeout: 120_000,
    });
    expect(stderr).toMatch(/2\/2/);
    expect(stderr).toMatch(/2 analysed, 0 failed/);
    const lines = readFileSync(out, 'utf8').trim().split('\r\n');
    expect(lines[0].split(',').slice(0, 3)).toEqual(['image', 'status', 'error']);
    expect(lines[1]).toMatch(/^a\.png,FINISHED,/);
    expect(lines[2]).toMatch(/^b\.png,FINISHED,/);
    expect(lines).toContain('statistic,n,mean,std,min,max');
    expect(lines.some((l) => l.startsWith('pixelSizeUm,2,0.5,0,0.5,0.5'))).toBe(true);
  }, 150_000);

  it('refuses a usage error with status 2 and a message naming it', async () => {
    const err = await run(process.execPath, [bin, 'analyse', '--model', 'porosity', '/nonexistent']).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(err).toMatchObject({ code: 2 });
    expect((err as { stderr: string }).stderr).toMatch(/no such file or folder/);
  });

  it('computes statistics over the finished rows only', () => {
    const rows: Row[] = [
      { image: 'a', status: 'FINISHED' as const, error: '', measurements: { d: 2, name: 'x' } },
      { image: 'b', status: 'FINISHED' as const, error: '', measurements: { d: 4 } },
      { image: 'c', status: 'FAILED' as const, error: 'bad', measurements: {} },
    ];
    expect(statistics(rows)).toEqual([{ name: 'd', n: 2, mean: 3, std: Math.SQRT2, min: 2, max: 4 }]);
    expect(toCsv(rows).split('\r\n')[3]).toBe('c,FAILED,bad,,');
  });
});
