/**
 * All SQL about the members of one workspace: who belongs to it, with which
 * role and since when (workspace_members), read together with the person
 * (users, shared by workspaces: operator/people.repository.ts).
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { WorkspaceUser } from '../../schemas/resources.js';
import type { Page, PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export interface MemberFilters {
  role?: string;
}

export interface Membership {
  user_id: string;
  role: string;
  joined_at: string;
}

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

export class MembersRepository extends TenantRepository {
  async findMember(userId: string): Promise<WorkspaceUser | undefined> {
    const row = await this.withPeople(this.scope).select(COLUMNS).where('workspace_members.user_id', '=', userId).executeTakeFirst();
    return row && toUser(row);
  }

  list(filters: MemberFilters, page: Page): Promise<PageResult<WorkspaceUser>> {
    return this.scope.snapshot(async (scope) => {
      let matching = this.withPeople(scope);
      if (filters.role !== undefined) matching = matching.where('workspace_members.role', '=', filters.role);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const { after } = page;
      const rows = await (
        after === undefined
          ? matching
          : matching.where((eb) =>
              eb(eb.refTuple('workspace_members.joined_at', 'workspace_members.user_id'), '<', eb.tuple(after.at, after.id)),
            )
      )
        .select(COLUMNS)
        .orderBy('workspace_members.joined_at', 'desc')
        .orderBy('workspace_members.user_id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map(toUser), total: this.codec.count(counted.total) };
    });
  }

  /** Makes each person a member; a membership that exists gets the new role (its joined_at stays). */
  async upsert(memberships: readonly Membership[]): Promise<void> {
    for (let start = 0; start < memberships.length; start += 500) {
      await this.scope
        .insertInto('workspace_members', memberships.slice(start, start + 500))
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'user_id']).doUpdateSet((eb) => ({ role: eb.ref('excluded.role') })),
        )
        .execute();
    }
  }

  /** The admins of the workspace, their rows locked until the transaction ends (the last admin rule). */
  async lockAdmins(): Promise<string[]> {
    const rows = await this.codec
      .lockRows(this.scope.selectFrom('workspace_members').select('user_id').where('role', '=', 'admin'))
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** Sets a member's role; returns whether they are a member. */
  async setRole(userId: string, role: string): Promise<boolean> {
    const result = await this.scope.updateTable('workspace_members').set({ role }).where('user_id', '=', userId).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Ends a membership; returns whether there was one. */
  async remove(userId: string): Promise<boolean> {
    const result = await this.scope.deleteFrom('workspace_members').where('user_id', '=', userId).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private withPeople(scope: TenantScope) {
    return scope.selectFrom('workspace_members').innerJoin('users', 'users.id', 'workspace_members.user_id');
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
