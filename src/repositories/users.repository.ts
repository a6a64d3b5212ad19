/**
 * All SQL about workspace users. People live once in `users` (shared across
 * workspaces, found by email); `workspace_members` says who belongs to which
 * workspace with which role. Reads always go through the membership of one
 * workspace.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Schema } from '../db/schema.js';
import type { WorkspaceUser } from '../schemas/resources.js';
import { normalizeEmail } from './identities.repository.js';
import { Repository, type Page, type PageResult } from './repository.js';

export interface UserFilters {
  role?: string;
}

export type NewMember = WorkspaceUser;

const COLUMNS = [
  'users.id as id',
  'users.email as email',
  'users.name as name',
  'users.avatar as avatar',
  'users.username as username',
  'users.language as language',
  'users.created_at as created_at',
  'workspace_members.role as workspace_role',
  'workspace_members.joined_at as joined_at',
] as const;

type MemberRow = Pick<Selectable<Schema['users']>, 'id' | 'email' | 'name' | 'avatar' | 'username' | 'language' | 'created_at'> & {
  workspace_role: string;
  joined_at: string;
};

export class UsersRepository extends Repository {

  async findMember(workspaceId: string, userId: string): Promise<WorkspaceUser | undefined> {
    const row = await this.members(this.db, workspaceId)
      .select(COLUMNS)
      .where('workspace_members.user_id', '=', userId)
      .executeTakeFirst();
    return row && toUser(row);
  }

  listMembers(workspaceId: string, filters: UserFilters, page: Page): Promise<PageResult<WorkspaceUser>> {
    return this.snapshot(async (db) => {
      let matching = this.members(db, workspaceId);
      if (filters.role !== undefined) matching = matching.where('workspace_members.role', '=', filters.role);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await matching
        .select(COLUMNS)
        .orderBy('workspace_members.joined_at', 'desc')
        .orderBy('workspace_members.user_id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map(toUser), total: this.codec.count(counted.total) };
    });
  }

  /**
   * Makes each person a member of the workspace. A person whose email is
   * already known is reused as stored (one workspace's import never rewrites
   * a profile other workspaces see); a membership that exists gets the new role.
   * Returns the user id of each entry, in order.
   */
  async upsertMembers(workspaceId: string, members: readonly NewMember[]): Promise<string[]> {
    if (members.length === 0) return [];
    const emails = [...new Set(members.map((member) => normalizeEmail(member.email)))];
    const known = new Map<string, string>();
    for (let start = 0; start < emails.length; start += 500) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email_normalized'])
        .where('email_normalized', 'in', emails.slice(start, start + 500))
        .execute();
      for (const row of rows) known.set(row.email_normalized, row.id);
    }
    const created = [];
    const ids: string[] = [];
    for (const member of members) {
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
      ids.push(id);
    }
    for (let start = 0; start < created.length; start += 500) {
      await this.db.insertInto('users').values(created.slice(start, start + 500)).execute();
    }
    const memberships = members.map((member, index) => ({
      workspace_id: workspaceId,
      user_id: ids[index] as string,
      role: member.workspace_role,
      joined_at: member.joined_at,
    }));
    for (let start = 0; start < memberships.length; start += 500) {
      await this.db
        .insertInto('workspace_members')
        .values(memberships.slice(start, start + 500))
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'user_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })),
        )
        .execute();
    }
    return ids;
  }

  /**
   * The normalized email of each of `ids` that names a user (users are shared
   * by workspaces, so this lookup is not scoped by one).
   */
  async emailsOfIds(ids: readonly string[]): Promise<Map<string, string>> {
    const emails = new Map<string, string>();
    for (let start = 0; start < ids.length; start += 500) {
      const rows = await this.db
        .selectFrom('users')
        .select(['id', 'email_normalized'])
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
      for (const row of rows) emails.set(row.id, row.email_normalized);
    }
    return emails;
  }

  private members(db: Kysely<Schema>, workspaceId: string) {
    const query: SelectQueryBuilder<Schema, 'workspace_members' | 'users', object> = db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .where('workspace_members.workspace_id', '=', workspaceId);
    return query;
  }
}

function toUser(row: MemberRow): WorkspaceUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    avatar: row.avatar,
    username: row.username,
    language: row.language,
    created_at: row.created_at,
    workspace_role: row.workspace_role,
    joined_at: row.joined_at,
  };
}
