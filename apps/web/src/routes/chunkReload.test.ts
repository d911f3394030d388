import { describe, expect, it } from 'vitest';
import { claimChunkReload, isChunkLoadError, RELOAD_KEY, RELOAD_WINDOW_MS } from './chunkReload';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('chunk load errors', () => {
  it('recognises the browsers’ and Vite’s messages, and nothing else', () => {
    for (const msg of [
      'Failed to fetch dynamically imported module: http://x/assets/TermsPage-abc.js',
      'error loading dynamically imported module',
      'Importing a module script failed.',
      'Unable to preload CSS for /assets/x.css',
    ])
      expect(isChunkLoadError(new TypeError(msg))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('reloads once within the window, again after it', () => {
    const s = memory();
    expect(claimChunkReload(s, 1_000_000)).toBe(true);
    expect(s.m.get(RELOAD_KEY)).toBe('1000000');
    expect(claimChunkReload(s, 1_000_000 + RELOAD_WINDOW_MS - 1)).toBe(false);
    expect(claimChunkReload(s, 1_000_000 + RELOAD_WINDOW_MS)).toBe(true);
  });

  it('no storage (private mode): no reload, the error page shows', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => undefined,
    };
    expect(claimChunkReload(broken)).toBe(false);
  });
});
