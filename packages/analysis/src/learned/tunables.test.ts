import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODELS_DIR } from './network.js';
import { grainNetworkFile, NETWORK } from './tunables.js';
import { VERSIONS } from '../types.js';

describe('the grain-boundary network of each version', () => {
  it('is the file of the latest learned version at or before it, and every file ships', () => {
    expect(grainNetworkFile('20261201')).toBe('grain-boundaries.onnx');
    expect(grainNetworkFile('20261202')).toBe('grain-boundaries-20261202.onnx');
    // a trained version's label (fine-tuned from a version) reads its base's file
    expect(grainNetworkFile('20261201-ft1')).toBe('grain-boundaries.onnx');
    expect(grainNetworkFile('20261202-ft3')).toBe('grain-boundaries-20261202.onnx');
    for (const [from, file] of NETWORK.grainFiles) {
      expect(VERSIONS).toContain(from);
      expect(existsSync(MODELS_DIR + file)).toBe(true);
      expect(existsSync(MODELS_DIR + file.replace(/\.onnx$/, '.card.json'))).toBe(true);
    }
  });
});
