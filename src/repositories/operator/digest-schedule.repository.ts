/**
 * The members who want a digest (CONTRACT C10.4), across workspaces, as
 * the digest workers see them: who, where to, how often, since when, and
 * the workspace's time zone. A workspace's own data is read afterwards
 * through its workspace-bound repositories.
 */
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export interface DigestSubscriber {
  workspace_id: WorkspaceId;
  workspace_name: string;
  time_zone: string;
  user_id: string;
  email: string;
  name: string | null;
  digest: 'daily' | 'weekly';
  digest_since: string | null;
}

export class DigestScheduleRepository extends OperatorRepository {
  async subscribers(): Promise<DigestSubscriber[]> {
    const rows = await this.db
      .selectFrom('workspace_members')
      .innerJoin('users', 'users.id', 'workspace_members.user_id')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
      .select([
        'workspace_members.workspace_id',
        'workspaces.name as workspace_name',
        'workspaces.time_zone',
        'workspace_members.user_id',
        'users.email',
        'users.name',
        'workspace_members.digest',
        'workspace_members.digest_since',
      ])
      .where('workspace_members.digest', 'in', ['daily', 'weekly'])
      .orderBy('workspace_members.workspace_id')
      .orderBy('workspace_members.user_id')
      .execute();
    return rows.map((row) => ({ ...row, digest: row.digest as DigestSubscriber['digest'] }));
  }
}
