/**
 * All SQL about site keys (CONTRACT C5.1). Operator data, though each key
 * names its workspace: an event request learns its workspace by finding its
 * site key, and the CLI revokes a key by its id, so those two lookups cannot
 * filter by a workspace (the allow-list in scripts/sql/examples.ts). Listing
 * and revoking for a workspace filter by it.
 */
import type { Selectable } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { SiteKeysTable } from '../../db/schema.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { OperatorRepository } from './operator-repository.js';

/** A site key as stored, its origins decoded. */
export type SiteKey = Omit<Selectable<SiteKeysTable>, 'origins'> & { origins: string[] };

export interface ActiveSiteKey {
  id: string;
  workspace_id: WorkspaceId;
  origins: string[];
}

export class SiteKeysRepository extends OperatorRepository {
  async insert(key: SiteKey): Promise<void> {
    await this.db
      .insertInto('site_keys')
      .values({ ...key, origins: JSON.stringify(key.origins) })
      .execute();
  }

  /** Runs on every event request: a compiled template (query-templates.ts). */
  async findActiveByKey(key: string): Promise<ActiveSiteKey | undefined> {
    const row = await this.template('siteKeys.activeByKey', () =>
      this.db
        .selectFrom('site_keys')
        .select(['id', 'workspace_id', 'origins'])
        .where('key', '=', param('key'))
        .where('revoked_at', 'is', null),
    ).executeTakeFirst(this.db, { key });
    return row && { id: row.id, workspace_id: row.workspace_id, origins: this.codec.readJson(row.origins) as unknown as string[] };
  }

  async findById(id: string): Promise<SiteKey | undefined> {
    const row = await this.db.selectFrom('site_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.decode(row);
  }

  async listActive(workspaceId: WorkspaceId): Promise<SiteKey[]> {
    const rows = await this.db
      .selectFrom('site_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => this.decode(row));
  }

  /** Every site key of a workspace, revoked ones too (the dashboard's settings), oldest first. */
  async listAll(workspaceId: WorkspaceId): Promise<SiteKey[]> {
    const rows = await this.db
      .selectFrom('site_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => this.decode(row));
  }

  /** Revokes the key if it is still active; returns whether it was. */
  async revoke(workspaceId: WorkspaceId, id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('site_keys')
      .set({ revoked_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordUse(workspaceId: WorkspaceId, id: string, at: string): Promise<void> {
    await this.db
      .updateTable('site_keys')
      .set({ last_used_at: at })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }

  private decode(row: Selectable<SiteKeysTable>): SiteKey {
    return { ...row, origins: this.codec.readJson(row.origins) as unknown as string[] };
  }
}
