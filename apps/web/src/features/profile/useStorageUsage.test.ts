import { describe, expect, it } from 'vitest';
import { formatBytes } from './useStorageUsage';

describe('formatBytes', () => {
  it('picks the unit and formats in the UI language', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(512 * 1024, 'en')).toBe('512 KB');
    expect(formatBytes(1.5 * 1024 * 1024, 'en')).toBe('1.5 MB');
    expect(formatBytes(1.5 * 1024 * 1024, 'de')).toBe('1,5 MB');
    expect(formatBytes(200 * 1024 * 1024, 'en')).toBe('200 MB');
    expect(formatBytes(3 * 1024 ** 3, 'en')).toBe('3 GB');
  });
});
