import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFS, PREFS_KEY, nextSort, queryOf, readPrefs, shortcutRange, writePrefs } from './prefs';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
};

describe('images table choices', () => {
  it('remembers columns, sort and filters, and ignores what it cannot read', () => {
    const s = memory();
    expect(readPrefs(s)).toEqual(DEFAULT_PREFS);
    const chosen = {
      ...DEFAULT_PREFS,
      columns: ['owner' as const, 'date' as const],
      sortKey: 'owner' as const,
      training: 'yes' as const,
      startDate: '2026-01-02',
    };
    writePrefs(chosen, s);
    expect(readPrefs(s)).toEqual(chosen);
    s.m.set(PREFS_KEY, JSON.stringify({ columns: ['bogus', 'deleted'], sortKey: 'x', startDate: '1.2.2026', deleted: 'maybe' }));
    expect(readPrefs(s)).toEqual({ ...DEFAULT_PREFS, columns: ['deleted'] });
    s.m.set(PREFS_KEY, '{not json');
    expect(readPrefs(s)).toEqual(DEFAULT_PREFS);
  });

  it('builds the list query and flips the sort', () => {
    expect(queryOf({ ...DEFAULT_PREFS, training: 'no', deleted: 'yes', userId: 'u' })).toEqual({
      sortKey: 'createdAt',
      sortOrder: 'desc',
      userId: 'u',
      startDate: undefined,
      endDate: undefined,
      allowedTrainingUse: false,
      isDeleted: true,
    });
    expect(nextSort(DEFAULT_PREFS, 'createdAt')).toEqual({ sortKey: 'createdAt', sortOrder: 'asc' });
    expect(nextSort(DEFAULT_PREFS, 'owner')).toEqual({ sortKey: 'owner', sortOrder: 'desc' });
  });

  it('turns the shortcuts into day ranges ending today', () => {
    const now = new Date('2026-03-10T08:00:00Z');
    expect(shortcutRange('sinceYesterday', now)).toEqual({ startDate: '2026-03-09', endDate: '2026-03-10' });
    expect(shortcutRange('last7Days', now)).toEqual({ startDate: '2026-03-04', endDate: '2026-03-10' });
    expect(shortcutRange('last30Days', now)).toEqual({ startDate: '2026-02-09', endDate: '2026-03-10' });
  });
});
