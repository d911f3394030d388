import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { balancedTile, CENTRED_INPUT, channelStats, executionProviders, MODELS_DIR, networkSession, normalisation, runTiled } from './network.js';
import { NETWORK } from './tunables.js';

describe('ONNX Runtime execution providers and input normalisation', () => {
  it('runs on the CPU unless CUDA is asked for or present with its provider library', () => {
    expect(executionProviders({ ONNX_EXECUTION_PROVIDER: 'cpu' })).toEqual(['cpu']);
    expect(executionProviders({ ONNX_EXECUTION_PROVIDER: 'cuda' })).toEqual(['cuda', 'cpu']);
    // this machine (and CI) has no NVIDIA device: auto means CPU
    if (!existsSync('/dev/nvidiactl')) expect(executionProviders({})).toEqual(['cpu']);
  });

  it('normalises per channel over the valid pixels only, with a floor on the spread', () => {
    // two valid pixels (0 and 255 in red, 10 in green and blue) and one excluded white pixel
    const rgb = new Uint8Array([0, 10, 10, 255, 10, 10, 255, 255, 255]);
    const { mean, std } = channelStats(rgb, new Uint8Array([1, 1, 0]));
    expect(mean[0]).toBeCloseTo(0.5, 6);
    expect(std[0]).toBeCloseTo(0.5, 6);
    expect(mean[1]).toBeCloseTo(10 / 255, 6);
    expect(std[1]).toBe(0.02);
  });

  it('only centres the image for a network whose input is image_centred (trained with train.py --input-scale)', () => {
    const rgb = new Uint8Array([0, 10, 10, 255, 10, 10, 255, 255, 255]);
    const valid = new Uint8Array([1, 1, 0]);
    expect(normalisation('image', rgb, valid)).toEqual(channelStats(rgb, valid));
    expect(normalisation(CENTRED_INPUT, rgb, valid)).toEqual({ mean: channelStats(rgb, valid).mean, std: [1, 1, 1] });
  });
});

describe('a network file other than the shipped one (a trained version, issue 25)', () => {
  it('loads by absolute path, gives what the same weights give, and is loaded anew when the file at that path changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lamella-net-'));
    try {
      const file = path.join(dir, 'candidate.onnx');
      copyFileSync(MODELS_DIR + NETWORK.grainFile, file);
      const rgb = new Uint8Array(64 * 48 * 3).map((_, i) => (i * 37) % 251);
      const shipped = await networkSession(NETWORK.grainFile);
      const other = await networkSession(file);
      expect(other).not.toBe(shipped);
      expect(await networkSession(file)).toBe(other);
      const [a] = await runTiled(shipped, rgb, 64, 48, null);
      const [b] = await runTiled(other, rgb, 64, 48, null);
      expect(Array.from(b)).toEqual(Array.from(a));
      // another file at the same path (its SHA-256 differs): a new session, and a broken file is refused
      writeFileSync(file, 'not a network');
      await expect(networkSession(file)).rejects.toThrow();
      expect(() => networkSession(path.join(dir, 'missing.onnx'))).toThrow(/missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('balanced tiles', () => {
  it('covers a side with as few equal tiles as the overlap allows, each a multiple of 8 and at most the tile size', () => {
    // 2310 px in tiles of at most 1024 overlapping by 32 on each side: three tiles of 816 px (5 of 512 before)
    expect(balancedTile(2310, 1024, 32)).toBe(816);
    expect(balancedTile(600, 1024, 32)).toBe(600);
    expect(balancedTile(601, 1024, 32)).toBe(608);
    for (const n of [1025, 1500, 1732, 3000, 4000]) {
      const t = balancedTile(n, 1024, 32);
      expect(t % 8).toBe(0);
      expect(t).toBeLessThanOrEqual(1024);
      const count = Math.ceil((n - 64) / (t - 64));
      // the tiles reach the far edge and no fewer tiles of at most 1024 px would
      expect(count * (t - 64) + 64).toBeGreaterThanOrEqual(n);
      expect(Math.ceil((n - 64) / (1024 - 64))).toBe(count);
    }
  });
});
