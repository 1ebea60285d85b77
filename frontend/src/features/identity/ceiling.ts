/**
 * The ceiling on rights, as the server applies it, so the screens offer only what the
 * signed-in person may hand out: a role whose every permission she holds (Administrator only
 * to an Administrator), a permission she holds, never her own roles, and an Administrator's
 * e-mail, roles and access only to an Administrator. The server refuses the rest anyway.
 */
export const ADMINISTRATOR = 'Administrator';

export interface Granter {
  administrator: boolean;
  permissions: ReadonlySet<string>;
}

export function granterOf(me: { roles: string[]; permissions: string[] } | null): Granter {
  return { administrator: me?.roles[0] === ADMINISTRATOR, permissions: new Set(me?.permissions ?? []) };
}

export function mayGrantPermission(by: Granter, code: string): boolean {
  return by.administrator || by.permissions.has(code);
}

export function mayGrantRole(by: Granter, role: { name: string; permissions: readonly string[] }): boolean {
  if (role.name === ADMINISTRATOR) return by.administrator;
  return role.permissions.every((code) => mayGrantPermission(by, code));
}

/** An Administrator's e-mail, roles and access are for Administrators to change. */
export function mayChangeAccount(by: Granter, target: { roles: string[] }): boolean {
  return by.administrator || target.roles[0] !== ADMINISTRATOR;
}
