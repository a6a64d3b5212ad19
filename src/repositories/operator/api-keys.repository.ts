/**
 * All SQL about API keys. Operator data, though each key names its
 * workspace: a request learns its workspace by finding its key by the hash
 * of the presented secret, and the CLI rotates and revokes keys by key id,
 * so those two lookups cannot filter by a workspace (the statement audit's
 * allow-list: scripts/sync-sql.ts).
 */
import type { Selectable } from 'kysely';
import type { ApiKeysTable } from '../../db/schema.js';
import { param } from '../../db/query-templates.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';
import type { KeyType } from './workspaces.repository.js';

export type ApiKey = Selectable<ApiKeysTable>;

export interface ActiveKey {
  id: string;
  workspace_id: WorkspaceId;
  type: KeyType;
}

export class ApiKeysRepository extends OperatorRepository {
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

  listActive(workspaceId: WorkspaceId): Promise<ApiKey[]> {
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
  async revoke(workspaceId: WorkspaceId, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordUse(workspaceId: WorkspaceId, id: string, at: string): Promise<void> {
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }
}
