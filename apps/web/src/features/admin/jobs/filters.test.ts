import { describe, expect, it } from 'vitest';
import { JOB_STATUSES as CONTRACT_STATUSES, jobStatusColor } from '../../../lib/jobStatus';
import { DEFAULT_COLUMNS, DEFAULT_FILTERS, JOB_STATUSES, decodeFilters, encodeFilters, listQuery, nextSort, reportUrl } from './filters';

describe('admin jobs query string', () => {
  it('decodes defaults from an empty query', () => {
    const f = decodeFilters(new URLSearchParams(''));
    expect(f).toEqual({
      ...DEFAULT_FILTERS,
      startDate: undefined,
      endDate: undefined,
      modelId: undefined,
      userId: undefined,
      company: undefined,
      status: undefined,
      source: undefined,
      sortKey: undefined,
      sortOrder: undefined,
    });
    expect(f.deleted).toBe('NOT_DELETED');
    expect(f.columns).toEqual(DEFAULT_COLUMNS);
    expect(encodeFilters(f).toString()).toBe('');
  });

  it('round-trips every filter', () => {
    const qs =
      'startDate=2026-01-01&endDate=2026-02-01&modelId=m1&userId=u1&company=ACME&deleted=ALL&withUserFeedback=true&withAdminFeedback=true&withSubmittedMasks=true&status=FAILED&source=API&sortKey=duration&sortOrder=asc&columns=owner%2Cduration';
    const f = decodeFilters(new URLSearchParams(qs));
    expect(f).toMatchObject({
      startDate: '2026-01-01',
      endDate: '2026-02-01',
      modelId: 'm1',
      userId: 'u1',
      company: 'ACME',
      deleted: 'ALL',
      withUserFeedback: true,
      status: 'FAILED',
      source: 'API',
      sortKey: 'duration',
      sortOrder: 'asc',
      columns: ['owner', 'duration'],
    });
    expect(decodeFilters(encodeFilters(f))).toEqual(f);
  });

  it('drops invalid values', () => {
    const f = decodeFilters(new URLSearchParams('startDate=01/02/2026&status=BOGUS&source=x&deleted=maybe&columns=nope,owner'));
    expect(f.startDate).toBeUndefined();
    expect(f.status).toBeUndefined();
    expect(f.source).toBeUndefined();
    expect(f.deleted).toBe('NOT_DELETED');
    expect(f.columns).toEqual(['owner']);
  });

  it('allows hiding every toggleable column', () => {
    const f = decodeFilters(new URLSearchParams('columns='));
    expect(f.columns).toEqual([]);
    expect(encodeFilters(f).get('columns')).toBe('');
  });

  it('builds the list call and the CSV links with the same filters', () => {
    const f = decodeFilters(new URLSearchParams('status=NEW&company=A%20B'));
    expect(listQuery(f, undefined)).toEqual({
      status: 'NEW',
      company: 'A B',
      deleted: 'NOT_DELETED',
      columns: ['createdAt', 'owner', 'company', 'status', 'source', 'model'],
      pageSize: 100,
    });
    expect(listQuery(f, 3).page).toBe(3);
    expect(reportUrl('report', f)).toBe('/api/admin/jobs/report?company=A%20B&deleted=NOT_DELETED&status=NEW');
    expect(reportUrl('masks-report', f)).toBe('/api/admin/jobs/masks-report?company=A%20B&deleted=NOT_DELETED&status=NEW');
  });

  it('cycles the sort', () => {
    const f = decodeFilters(new URLSearchParams(''));
    expect(nextSort(f, 'createdAt')).toEqual({ sortKey: 'createdAt', sortOrder: 'desc' });
    expect(nextSort({ ...f, sortKey: 'createdAt', sortOrder: 'desc' }, 'createdAt')).toEqual({ sortKey: 'createdAt', sortOrder: 'asc' });
  });
});

describe('admin job statuses use the one colour map', () => {
  it('offers every status of the contract in the filter, each with the user-app colour (CACHED green like FINISHED)', () => {
    expect([...JOB_STATUSES].sort()).toEqual([...CONTRACT_STATUSES].sort());
    expect(jobStatusColor('CACHED')).toBe(jobStatusColor('FINISHED'));
  });
});
