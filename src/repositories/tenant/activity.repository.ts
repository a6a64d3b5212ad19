/**
 * All SQL about identity activity entries of one workspace.
 */
import type { Activity } from '../../schemas/resources.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export interface NewActivity extends Activity {
  identity_id: string;
}

const COLUMNS = ['id', 'type', 'who', 'what', 'source', 'created_at'] as const;

export class ActivityRepository extends KeyedTenantRepository {
  protected readonly table = 'identity_activity' as const;

  listForIdentity(identityId: string, page: Page): Promise<PageResult<Activity>> {
    return this.scope.snapshot((scope) =>
      newestFirstPage(this.codec, scope.selectFrom('identity_activity').where('identity_id', '=', identityId), COLUMNS, page),
    );
  }

  /** Writes the entries of visitors' events (tracking): one statement shape whatever their number. */
  async record(entries: readonly NewActivity[]): Promise<void> {
    await this.scope.insertColumns(
      'identity_activity',
      { id: 'uuid', identity_id: 'uuid', type: 'text', who: 'text', what: 'text', source: 'text', created_at: 'timestamptz' },
      entries.map((entry) => ({
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

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(entries: readonly NewActivity[]): Promise<number> {
    return this.scope.insertRows(
      'identity_activity',
      entries.map((entry) => ({
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
