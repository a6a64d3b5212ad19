/**
 * All SQL about API keys. Two lookups are not scoped by a workspace, by
 * design: finding a key by the hash of a presented secret (that is how a
 * request learns its workspace) and finding a key by id for the operator CLI.
 */
import type { ApiKeysTable } from '../db/schema.js';
import type { KeyType } from './workspaces.repository.js';
import { param } from '../db/query-templates.js';
import { Repository } from './repository.js';

export type ApiKey = ApiKeysTable;

export interface ActiveKey {
  id: string;
  workspace_id: string;
  type: KeyType;
}

export class ApiKeysRepository extends Repository {

  async insert(key: ApiKey): Promise<void> {
    await this.db.insertInto('api_keys').values(key).execute();
  }

  /** Runs on every request: a compiled template (query-templates.ts). */
  findActiveByHash(keyHash: string): Promise<ActiveKey | undefined> {
    return this.template('apiKeys.activeByHash', () =>
      this.db
        .selectFrom('api_keys')
        .select(['id', 'workspace_id', 'type'])
        .where('key_hash', '=', param('hash'))
        .where('revoked_at', 'is', null),
    ).executeTakeFirst(this.db, { hash: keyHash });
  }

  findById(id: string): Promise<ApiKey | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listActive(workspaceId: string): Promise<ApiKey[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Revokes the key if it is still active; returns whether it was. */
  async revoke(workspaceId: string, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordUse(workspaceId: string, id: string, at: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }
}
