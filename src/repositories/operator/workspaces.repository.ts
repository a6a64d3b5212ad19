/**
 * All SQL about workspaces. Listing every workspace is an operator action
 * (the CLI); requests only ever reach their own workspace, by the id their
 * key or session names. This is where a WorkspaceId is first made.
 */
import type { Selectable } from 'kysely';
import type { WorkspacesTable } from '../../db/schema.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

export type Workspace = Selectable<WorkspacesTable>;
export type KeyType = 'production' | 'development';

export class WorkspacesRepository extends OperatorRepository {
  /** Stores a new workspace; its id is a WorkspaceId from now on. */
  async insert(workspace: { id: string; name: string; created_at: string }): Promise<Workspace> {
    await this.db.insertInto('workspaces').values(workspace).execute();
    return { ...workspace, id: workspace.id as WorkspaceId, prod_last_use: null, dev_last_use: null, time_zone: 'UTC' };
  }

  findById(id: string): Promise<Workspace | undefined> {
    return this.db.selectFrom('workspaces').selectAll().where('id', '=', id as WorkspaceId).executeTakeFirst();
  }

  /** Every workspace, oldest first (operator listing). */
  listAll(): Promise<Workspace[]> {
    return this.db.selectFrom('workspaces').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
    return row === undefined;
  }

  /** Sets the time zone of the workspace's digests (C10.4); false when there is no such workspace. */
  async setTimeZone(id: WorkspaceId, timeZone: string): Promise<boolean> {
    const result = await this.db.updateTable('workspaces').set({ time_zone: timeZone }).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordKeyUse(id: WorkspaceId, type: KeyType, at: string): Promise<void> {
    await this.db
      .updateTable('workspaces')
      .set(type === 'production' ? { prod_last_use: at } : { dev_last_use: at })
      .where('id', '=', id)
      .execute();
  }
}
