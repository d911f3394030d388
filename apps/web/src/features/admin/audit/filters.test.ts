import { describe, expect, it } from 'vitest';
import { auditQuery, decodeAuditFilters, encodeAuditFilters } from './filters';

const ID = '0b6c3f1e-2d4a-4c8e-9f10-1a2b3c4d5e6f';

describe('audit log filters in the query string', () => {
  it('round-trips every filter and the page', () => {
    const filters = { actorId: ID, action: 'user.', targetType: 'user', targetId: ID };
    const qs = encodeAuditFilters(filters, 3);
    expect(qs.toString()).toBe(`actorId=${ID}&action=user.&targetType=user&targetId=${ID}&page=3`);
    expect(decodeAuditFilters(qs)).toEqual({ filters, page: 3 });
    expect(auditQuery(filters, 3)).toEqual({ page: 3, pageSize: 50, actorId: ID, action: 'user.', targetType: 'user', targetId: ID });
  });

  it('leaves out empty filters and page 1; ignores what the server would refuse', () => {
    expect(encodeAuditFilters({ actorId: null, action: null, targetType: null, targetId: '  ' }, 1).toString()).toBe('');
    expect(decodeAuditFilters(new URLSearchParams('actorId=nope&page=-2&targetId=%20'))).toEqual({
      filters: { actorId: null, action: null, targetType: null, targetId: '' },
      page: 1,
    });
    expect(auditQuery({ actorId: null, action: null, targetType: null, targetId: '' }, 1)).toEqual({ page: 1, pageSize: 50 });
  });
});
