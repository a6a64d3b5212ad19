/**
 * All SQL about a workspace's settings of lead intelligence (one row, JSON;
 * src/intelligence/settings.ts says what it holds).
 */
import type { JsonObject } from '../../schemas/json.js';
import { TenantRepository } from './tenant-repository.js';

export class WorkspaceSettingsRepository extends TenantRepository {
  async intelligence(): Promise<JsonObject | null> {
    const row = await this.scope.selectFrom('workspace_settings').select('intelligence').executeTakeFirst();
    return row === undefined ? null : this.codec.readJson(row.intelligence);
  }

  async setIntelligence(settings: JsonObject, at: string): Promise<void> {
    await this.scope
      .insertInto('workspace_settings', [{ intelligence: this.codec.json(settings), updated_at: at }])
      .onConflict((conflict) => conflict.column('workspace_id').doUpdateSet({ intelligence: this.codec.json(settings), updated_at: at }))
      .execute();
  }
}
