import { describe, expect, it } from 'vitest';
import type { Role } from './api';
import { needsParticipant } from './invitationRules';

const roles: Pick<Role, 'name' | 'permissions'>[] = [
  { name: 'Administrator', permissions: ['program:readall', 'user:create'] },
  { name: 'Coordinator', permissions: ['participant:read'] },
  { name: 'Auditor', permissions: ['program:readall'] },
  { name: 'Helpdesk', permissions: ['user:read'] },
];

describe('needsParticipant', () => {
  it('asks for her participant when a Coordinator sees only her programs', () => {
    expect(needsParticipant(['Coordinator'], roles)).toBe(true);
    expect(needsParticipant(['Helpdesk', 'Coordinator'], roles)).toBe(true);
  });

  it('does not when a role sees every program, or nobody coordinates', () => {
    expect(needsParticipant(['Administrator', 'Coordinator'], roles)).toBe(false);
    expect(needsParticipant(['Coordinator', 'Auditor'], roles)).toBe(false);
    expect(needsParticipant(['Helpdesk'], roles)).toBe(false);
    expect(needsParticipant([], roles)).toBe(false);
  });
});
