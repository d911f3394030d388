import { describe, expect, it } from 'vitest';
import { matchesUser, userItems } from './userOptions';

const ada = { id: '6f1c2d3e-0000-4000-8000-00000000000a', fullName: 'Ada Aalto', email: 'ada@lab.test', company: 'Steelworks', groupId: 'g2' };
const bob = { id: '6f1c2d3e-0000-4000-8000-00000000000b', fullName: 'Bob Berg', email: 'bob@lab.test', company: '', groupId: null };
const group = (id: string, name: string) => ({ id, name, adminId: null, users: [], admin: null, members: [], createdAt: '' });

describe('group user options', () => {
  it('finds users by company, id, e-mail or name words', () => {
    const [item] = userItems([ada], [], null, false);
    expect(matchesUser(item, 'steel')).toBe(true);
    expect(matchesUser(item, '0000000a')).toBe(true);
    expect(matchesUser(item, 'aalto ada')).toBe(true);
    expect(matchesUser(item, 'bob')).toBe(false);
  });

  it('disables members of another group in the members select only', () => {
    const groups = [group('g1', 'Lab'), group('g2', 'Coatings')];
    const members = userItems([ada, bob], groups, groups[0], true);
    expect(members.map((m) => [m.disabled, m.otherGroup])).toEqual([
      [true, 'Coatings'],
      [false, null],
    ]);
    expect(userItems([ada], groups, groups[1], true)[0].disabled).toBe(false);
    expect(userItems([ada], groups, groups[0], false)[0].disabled).toBe(false);
  });
});
