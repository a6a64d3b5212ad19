/**
 * The workspaces a person belongs to, read across workspaces: the dashboard's
 * way to a WorkspaceId, as the key lookup is the API's. A session names a
 * person and the workspace it looks at; `find` confirms the membership (and
 * the role) on every request, `forUser` lists a person's workspaces for the
 * switcher and for the rule that a dashboard hands out password links only
 * for people whose every workspace the caller administers.
 */
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export interface PersonMembership {
  workspace_id: WorkspaceId;
  workspace_name: string;
  role: string;
  joined_at: string;
}

export class MembershipsRepository extends OperatorRepository {
  /** The person's membership of `workspaceId`, if any (any text: it is only compared). */
  async find(userId: string, workspaceId: string): Promise<{ workspace_id: WorkspaceId; role: string } | undefined> {
    return this.db
      .selectFrom('workspace_members')
      .select(['workspace_id', 'role'])
      .where('workspace_id', '=', workspaceId as WorkspaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Every workspace of a person, oldest membership first. */
  forUser(userId: string): Promise<PersonMembership[]> {
    return this.db
      .selectFrom('workspace_members')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
      .select([
        'workspace_members.workspace_id as workspace_id',
        'workspaces.name as workspace_name',
        'workspace_members.role as role',
        'workspace_members.joined_at as joined_at',
      ])
      .where('workspace_members.user_id', '=', userId)
      .orderBy('workspace_members.joined_at')
      .orderBy('workspace_members.workspace_id')
      .execute();
  }
}
