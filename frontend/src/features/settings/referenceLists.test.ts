import { describe, expect, it } from 'vitest';
import { REFERENCE_LISTS, sortEntries } from './referenceLists';

describe('reference lists', () => {
  it('lists active entries first, by name, and keeps inactive ones', () => {
    const sorted = sortEntries([
      { id: 1, name: 'Zeta', code: 'Z', isActive: true },
      { id: 2, name: 'Alpha', code: 'A', isActive: false },
      { id: 3, name: 'Beta', code: 'B', isActive: true },
    ]);
    expect(sorted.map((e) => e.code)).toEqual(['B', 'Z', 'A']);
  });

  it('names each editable list once, with the permission that creates in it', () => {
    expect(REFERENCE_LISTS.map((l) => [l.slug, l.create])).toEqual([
      ['funds', 'fund:create'],
      ['expense-accounts', 'expenseaccount:create'],
      ['mentor-programs', 'mentorprogram:create'],
      ['approval-codes', 'request:approve'],
    ]);
  });
});
