/**
 * Workspace users (CONTRACT C4.7): only members of the workspace, each with
 * its role and the time it joined.
 */
import type { TenantRepositories, WorkspaceStore } from '../../repositories/index.js';
import type { Person, PeopleRepository } from '../../repositories/operator/people.repository.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { MemberFilters } from '../../repositories/tenant/members.repository.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import type { WorkspaceUser } from '../../schemas/resources.js';
import { NotFoundError, ServiceError } from '../errors.js';
import { pathId } from '../ids.js';
import type { Role } from '../operator/roles.js';

export class UsersService {
  constructor(private readonly store: WorkspaceStore) {}

  list(filters: MemberFilters, page: Page): Promise<PageResult<WorkspaceUser>> {
    return this.store.repos.members.list(filters, page);
  }

  async get(id: string): Promise<WorkspaceUser> {
    const user = await this.store.repos.members.findMember(pathId(id, 'user'));
    if (user === undefined) throw new NotFoundError('user');
    return user;
  }

  /** Changes a member's role; the last admin is never demoted (CONTRACT C7.5). */
  async changeRole(id: string, role: Role): Promise<WorkspaceUser> {
    const userId = pathId(id, 'user');
    return this.store.transaction(async (repos) => {
      const admins = await repos.members.lockAdmins();
      if (role !== 'admin' && admins.length === 1 && admins[0] === userId) throw lastAdmin('demoted', userId, { role: 'the last admin keeps the admin role' });
      if (!(await repos.members.setRole(userId, role))) throw new NotFoundError('user');
      return (await repos.members.findMember(userId)) as WorkspaceUser;
    });
  }

  /** Ends a membership (the person and their other memberships stay); the last admin is never removed. */
  async remove(id: string): Promise<void> {
    const userId = pathId(id, 'user');
    await this.store.transaction(async (repos) => {
      const admins = await repos.members.lockAdmins();
      if (admins.length === 1 && admins[0] === userId) throw lastAdmin('removed', userId);
      if (!(await repos.members.remove(userId))) throw new NotFoundError('user');
    });
  }
}

/** 409: the change would leave the workspace without an admin; details name the member (and the field, for a demotion). */
function lastAdmin(what: string, userId: string, fields?: Record<string, string>): ServiceError {
  return new ServiceError('conflict', `the last admin of a workspace cannot be ${what}; make another member admin first`, {
    conflict: 'last_admin',
    user_id: userId,
    ...(fields === undefined ? {} : { fields }),
  });
}

/** A person to make a member: their profile (used only if the email is new) and their membership. */
export type NewMember = WorkspaceUser;

/**
 * Makes each person a member of the workspace. A person whose email is
 * already known is reused as stored (one workspace never rewrites a profile
 * other workspaces see); a membership that exists gets the new role.
 * Returns the user id of each entry, in order. Run it in a transaction.
 */
export async function addMembers(repos: TenantRepositories, people: PeopleRepository, members: readonly NewMember[]): Promise<string[]> {
  if (members.length === 0) return [];
  const known = await people.idsByEmail([...new Set(members.map((member) => normalizeEmail(member.email)))]);
  const created: Person[] = [];
  const ids = members.map((member) => {
    const email = normalizeEmail(member.email);
    let id = known.get(email);
    if (id === undefined) {
      id = member.id;
      known.set(email, id);
      created.push({
        id,
        email: member.email,
        email_normalized: email,
        name: member.name,
        avatar: member.avatar,
        username: member.username,
        language: member.language,
        created_at: member.created_at,
      });
    }
    return id;
  });
  await people.insertMany(created);
  await repos.members.upsert(
    members.map((member, index) => ({ user_id: ids[index] as string, role: member.workspace_role, joined_at: member.joined_at })),
  );
  return ids;
}
