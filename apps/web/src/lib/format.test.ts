import { describe, expect, it } from 'vitest';
import { formatAdminDateTime, formatDate, formatDateTime, formatFilterDate, formatRelative, NO_VALUE } from './format';

describe('the one date formatter', () => {
  const d = new Date(2026, 0, 5, 7, 8, 9); // local time

  it('back-office dates: DD/MM/YYYY HH:mm:ss and filter dates YYYY-MM-DD', () => {
    expect(formatAdminDateTime(d.toISOString())).toBe('05/01/2026 07:08:09');
    expect(formatFilterDate(d)).toBe('2026-01-05');
  });

  it('user-app dates in the UI language', () => {
    expect(formatDate(d, 'en')).toBe('Jan 5, 2026');
    expect(formatDate(d, 'de')).toBe('05.01.2026');
    expect(formatDateTime(d, 'de')).toContain('05.01.2026');
    expect(formatDateTime(d, 'de')).toContain('07:08');
  });

  it('relative time in the UI language', () => {
    const now = d.getTime();
    expect(formatRelative(now - 3 * 60_000, 'en', now)).toBe('3 minutes ago');
    expect(formatRelative(now - 86_400_000, 'en', now)).toBe('yesterday');
    expect(formatRelative(now - 86_400_000, 'de', now)).toBe('gestern');
    expect(formatRelative(now, 'en', now)).toBe('now');
  });

  it('missing or broken values read as a dash', () => {
    for (const v of [null, undefined, '', 'not a date']) {
      expect(formatDate(v, 'en')).toBe(NO_VALUE);
      expect(formatAdminDateTime(v)).toBe(NO_VALUE);
      expect(formatRelative(v, 'en')).toBe(NO_VALUE);
    }
  });
});
