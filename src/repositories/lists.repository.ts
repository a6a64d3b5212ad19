/**
 * All SQL about visitor lists (segments), always within one workspace.
 */
import type { VisitorList } from '../schemas/resources.js';
import { TenantRepository, type Page, type PageResult } from './repository.js';

const COLUMNS = ['id', 'name', 'description', 'color', 'created_at'] as const;

export class ListsRepository extends TenantRepository {
  protected readonly table = 'visitor_lists' as const;


  list(workspaceId: string, page: Page): Promise<PageResult<VisitorList>> {
    return this.snapshot(async (db) => {
      const matching = db.selectFrom('visitor_lists').where('workspace_id', '=', workspaceId);
      return this.newestFirstPage(matching, COLUMNS, page);
    });
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(workspaceId: string, lists: readonly VisitorList[]): Promise<number> {
    return this.insertRows(
      this.db,
      'visitor_lists',
      lists.map((list) => ({
        workspace_id: workspaceId,
        id: list.id,
        name: list.name,
        description: list.description,
        color: list.color,
        created_at: list.created_at,
      })),
    );
  }
}
