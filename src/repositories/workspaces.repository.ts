/**
 * All SQL about workspaces. Listing every workspace is an operator action
 * (the CLI); requests only ever reach their own workspace by id.
 */
import type { WorkspacesTable } from '../db/schema.js';
import { Repository } from './repository.js';

export type Workspace = WorkspacesTable;
export type KeyType = 'production' | 'development';

export class WorkspacesRepository extends Repository {

  async insert(workspace: Workspace): Promise<void> {
    await this.db.insertInto('workspaces').values(workspace).execute();
  }

  findById(workspaceId: string): Promise<Workspace | undefined> {
    return this.db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
  }

  /** Every workspace, oldest first (operator listing). */
  listAll(): Promise<Workspace[]> {
    return this.db.selectFrom('workspaces').selectAll().orderBy('created_at').orderBy('id').execute();
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
    return row === undefined;
  }

  async recordKeyUse(workspaceId: string, type: KeyType, at: string): Promise<void> {
    await this.db
      .updateTable('workspaces')
      .set(type === 'production' ? { prod_last_use: at } : { dev_last_use: at })
      .where('id', '=', workspaceId)
      .execute();
  }
}
