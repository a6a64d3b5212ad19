/**
 * All SQL about identity activity entries, always within one workspace.
 */
import type { Activity } from '../schemas/resources.js';
import { TenantRepository, type Page, type PageResult } from './repository.js';

export interface NewActivity extends Activity {
  identity_id: string;
}

const COLUMNS = ['id', 'type', 'who', 'what', 'source', 'created_at'] as const;

export class ActivityRepository extends TenantRepository {
  protected readonly table = 'identity_activity' as const;


  listForIdentity(workspaceId: string, identityId: string, page: Page): Promise<PageResult<Activity>> {
    return this.snapshot(async (db) => {
      const matching = db
        .selectFrom('identity_activity')
        .where('workspace_id', '=', workspaceId)
        .where('identity_id', '=', identityId);
      return this.newestFirstPage(matching, COLUMNS, page);
    });
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(workspaceId: string, entries: readonly NewActivity[]): Promise<number> {
    return this.insertRows(
      this.db,
      'identity_activity',
      entries.map((entry) => ({
        workspace_id: workspaceId,
        id: entry.id,
        identity_id: entry.identity_id,
        type: entry.type,
        who: entry.who,
        what: entry.what,
        source: entry.source,
        created_at: entry.created_at,
      })),
    );
  }
}
