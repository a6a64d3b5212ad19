/**
 * Workspace roles (CONTRACT C7.4): a viewer reads; a member also edits leads
 * and identities; an admin also manages keys, site keys, webhooks and
 * members. A role the dashboard does not know (an import may write any
 * text) counts as viewer: the least it could mean.
 */
export const ROLES = ['viewer', 'member', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/** The role a membership's text grants. */
export function effectiveRole(role: string): Role {
  return isRole(role) ? role : 'viewer';
}

export function allows(role: Role, needed: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(needed);
}
