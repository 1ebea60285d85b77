import type { PermissionInfo } from './api';

export interface PermissionGroup {
  resource: string;
  permissions: PermissionInfo[];
}

/** The server's permissions grouped by resource, groups and actions in the server's order. */
export function groupPermissions(all: PermissionInfo[]): PermissionGroup[] {
  const groups = new Map<string, PermissionInfo[]>();
  for (const p of all) {
    const list = groups.get(p.resource);
    if (list) list.push(p);
    else groups.set(p.resource, [p]);
  }
  return [...groups].map(([resource, permissions]) => ({ resource, permissions }));
}

/** Checked state of a group's "all" box. */
export function groupState(group: PermissionGroup, selected: ReadonlySet<string>): 'all' | 'some' | 'none' {
  const n = group.permissions.filter((p) => selected.has(p.code)).length;
  return n === 0 ? 'none' : n === group.permissions.length ? 'all' : 'some';
}

/** Ticks or clears a whole group, keeping the other selections and the server's order. */
export function toggleGroup(all: PermissionInfo[], selected: string[], group: PermissionGroup, on: boolean): string[] {
  const inGroup = new Set<string>(group.permissions.map((p) => p.code));
  const next = new Set(selected.filter((c) => !inGroup.has(c)));
  if (on) for (const c of inGroup) next.add(c);
  return all.map((p) => p.code).filter((c) => next.has(c));
}

/** Readable resource names: 'expenseaccount' -> 'Expense account'. */
const NAMES: Record<string, string> = {
  expenseaccount: 'Expense account',
  mentorprogram: 'Mentor program',
  workplacesetting: 'Workplace setting',
  jobcategory: 'Job category',
  travelpurpose: 'Travel purpose',
  transittype: 'Transit type',
  trainingtype: 'Training type',
  caucusregion: 'Caucus region',
};
export const resourceLabel = (resource: string) => NAMES[resource] ?? resource.charAt(0).toUpperCase() + resource.slice(1);
