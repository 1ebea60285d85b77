import { describe, expect, it } from 'vitest';
import type { PermissionInfo } from './api';
import { groupPermissions, groupState, resourceLabel, toggleGroup } from './permissionGroups';

const p = (code: PermissionInfo['code']): PermissionInfo => {
  const [resource, action] = code.split(':') as [string, string];
  return { code, resource, action, grantable: true };
};
const all = (['role:create', 'role:read', 'user:read', 'budget:edit', 'budget:read'] as const).map(p);

describe('permission groups', () => {
  it('groups by resource in server order', () => {
    const groups = groupPermissions(all);
    expect(groups.map((g) => g.resource)).toEqual(['role', 'user', 'budget']);
    expect(groups[2]!.permissions.map((x) => x.action)).toEqual(['edit', 'read']);
  });

  it('knows whether a group is fully ticked', () => {
    const [role] = groupPermissions(all);
    expect(groupState(role!, new Set(['role:read']))).toBe('some');
    expect(groupState(role!, new Set(['role:read', 'role:create']))).toBe('all');
    expect(groupState(role!, new Set())).toBe('none');
  });

  it('ticks and clears a group, keeping the rest in server order', () => {
    const budget = groupPermissions(all)[2]!;
    expect(toggleGroup(all, ['user:read', 'budget:read'], budget, true)).toEqual(['user:read', 'budget:edit', 'budget:read']);
    expect(toggleGroup(all, ['user:read', 'budget:read'], budget, false)).toEqual(['user:read']);
  });

  it('names resources readably', () => {
    expect(resourceLabel('expenseaccount')).toBe('Expense account');
    expect(resourceLabel('budget')).toBe('Budget');
  });
});
