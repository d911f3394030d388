import { describe, expect, it } from 'vitest';
import { pairSidecars, sidecarKey } from './service.ts';
import { jobCacheKey } from '../jobs/cache-key.ts';

describe('sidecar texts uploaded with their images', () => {
  it('pairs a .txt, .hdr or .cal.xml with the image of the same stem; a lone text stays to be refused as an image', () => {
    const f = (filename: string, size = 100) => ({ filename, size });
    const jeol = f('S1_001.tif'),
      jeolTxt = f('S1_001.txt'),
      hitachi = f('sample-3.TIF'),
      hitachiTxt = f('Sample-3.TXT'),
      leica = f('cs 12.png'),
      leicaXml = f('cs 12.cal.xml'),
      alone = f('notes.txt'),
      plain = f('other.png');
    const { images, sidecars } = pairSidecars([jeol, jeolTxt, hitachi, hitachiTxt, leica, leicaXml, alone, plain]);
    expect(sidecars.get(jeol)).toBe(jeolTxt);
    expect(sidecars.get(hitachi)).toBe(hitachiTxt);
    expect(sidecars.get(leica)).toBe(leicaXml);
    expect(sidecars.has(plain)).toBe(false);
    expect(images).toEqual([jeol, hitachi, leica, plain, alone]);
    // too large for an instrument's text: checked as an image (and refused)
    expect(pairSidecars([jeol, f('S1_001.txt', 10_000_000)]).sidecars.size).toBe(0);
  });
  it('stores the sidecar beside the original', () => {
    expect(sidecarKey('images/u/i/original')).toBe('images/u/i/sidecar.txt');
  });
  it('names the image in the result cache key only when it has a sidecar', () => {
    const input = { imageSha256: 'ab', model: 'porosity', version: '20261201', settings: {}, crop: null, maskSha256: null };
    expect(jobCacheKey({ ...input, sidecarOf: null })).toBe(jobCacheKey(input));
    expect(jobCacheKey({ ...input, sidecarOf: 'img-1' })).not.toBe(jobCacheKey(input));
    expect(jobCacheKey({ ...input, sidecarOf: 'img-1' })).not.toBe(jobCacheKey({ ...input, sidecarOf: 'img-2' }));
  });
});
