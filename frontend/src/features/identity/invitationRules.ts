import type { Role } from './api';

/**
 * Whether the roles picked see programs only through a participant (the server's rule,
 * identity::rules::needs_participant): a Coordinator, unless the first role is Administrator
 * or a role picked reads every program.
 */
export function needsParticipant(picked: string[], roles: Pick<Role, 'name' | 'permissions'>[]): boolean {
  const held = roles.filter((r) => picked.includes(r.name));
  const seesAll = picked[0] === 'Administrator' || held.some((r) => r.permissions.includes('program:readall'));
  return !seesAll && picked.includes('Coordinator');
}
