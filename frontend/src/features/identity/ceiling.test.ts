import { describe, expect, it } from 'vitest';
import { granterOf, mayChangeAccount, mayGrantPermission, mayGrantRole } from './ceiling';

const helpdesk = granterOf({ roles: ['Helpdesk'], permissions: ['user:read', 'user:edit'] });
const admin = granterOf({ roles: ['Administrator'], permissions: [] });

describe('the ceiling on rights', () => {
  it.each([
    [helpdesk, 'Reader', ['user:read'], true],
    [helpdesk, 'Helpdesk', ['user:read', 'user:edit'], true],
    [helpdesk, 'Budget', ['user:read', 'budget:edit'], false],
    [helpdesk, 'Administrator', [], false],
    [helpdesk, 'Empty', [], true],
    [admin, 'Administrator', ['user:read'], true],
    [admin, 'Budget', ['budget:edit'], true],
  ] as const)('%#: a role %s with %j is grantable: %s', (by, name, permissions, ok) => {
    expect(mayGrantRole(by, { name, permissions })).toBe(ok);
  });

  it('offers only held permissions, all of them to an Administrator', () => {
    expect(mayGrantPermission(helpdesk, 'user:edit')).toBe(true);
    expect(mayGrantPermission(helpdesk, 'role:edit')).toBe(false);
    expect(mayGrantPermission(admin, 'role:edit')).toBe(true);
    expect(mayGrantPermission(granterOf(null), 'user:read')).toBe(false);
  });

  it("keeps an Administrator's account for Administrators", () => {
    expect(mayChangeAccount(helpdesk, { roles: ['Administrator'] })).toBe(false);
    expect(mayChangeAccount(helpdesk, { roles: ['Coordinator', 'Administrator'] })).toBe(true);
    expect(mayChangeAccount(admin, { roles: ['Administrator'] })).toBe(true);
  });
});
