import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { channelStats, executionProviders } from './network.js';

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
});
