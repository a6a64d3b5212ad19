/**
 * All SQL about the visitor lists (segments) of one workspace.
 */
import type { VisitorList } from '../../schemas/resources.js';
import { newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

const COLUMNS = ['id', 'name', 'description', 'color', 'created_at'] as const;

export class ListsRepository extends KeyedTenantRepository {
  protected readonly table = 'visitor_lists' as const;

  list(page: Page): Promise<PageResult<VisitorList>> {
    return this.scope.snapshot((scope) => newestFirstPage(this.codec, scope.selectFrom('visitor_lists'), COLUMNS, page));
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(lists: readonly VisitorList[]): Promise<number> {
    return this.scope.insertRows(
      'visitor_lists',
      lists.map((list) => ({
        id: list.id,
        name: list.name,
        description: list.description,
        color: list.color,
        created_at: list.created_at,
      })),
    );
  }
}
