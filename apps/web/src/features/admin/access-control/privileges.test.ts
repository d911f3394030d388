import { describe, expect, it } from 'vitest';
import { namesOf, toPrivileges, toggled } from './privileges';

describe('access-control toggles', () => {
  it('grants READ with WRITE and revokes WRITE with READ', () => {
    expect(toggled([], 'USER.WRITE', true)).toEqual({ next: ['USER.READ', 'USER.WRITE'], changed: ['USER.READ', 'USER.WRITE'] });
    expect(toggled(['USER.READ'], 'USER.WRITE', true)).toEqual({ next: ['USER.READ', 'USER.WRITE'], changed: ['USER.WRITE'] });
    expect(toggled(['USER.READ', 'USER.WRITE', 'JOB.READ'], 'USER.READ', false)).toEqual({
      next: ['JOB.READ'],
      changed: ['USER.READ', 'USER.WRITE'],
    });
    expect(toggled(['JOB.READ', 'JOB.WRITE'], 'JOB.WRITE', false)).toEqual({ next: ['JOB.READ'], changed: ['JOB.WRITE'] });
    expect(toggled(['JOB.READ'], 'JOB.READ', true)).toEqual({ next: ['JOB.READ'], changed: [] });
  });

  it('converts between resource.action pairs and names, ignoring unknown ones', () => {
    expect(
      namesOf([
        { resource: 'JOB', action: 'READ' },
        { resource: 'USER', action: 'DELETE' },
      ]),
    ).toEqual(['JOB.READ']);
    expect(toPrivileges(['JOB.WRITE', 'USER.READ'])).toEqual([
      { resource: 'USER', action: 'READ' },
      { resource: 'JOB', action: 'WRITE' },
    ]);
  });
});
