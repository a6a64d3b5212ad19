/**
 * Visitor lists (segments) of a workspace: read-only through the API.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { VisitorList } from '../../schemas/resources.js';

export class ListsService {
  constructor(private readonly store: WorkspaceStore) {}

  list(page: Page): Promise<PageResult<VisitorList>> {
    return this.store.repos.lists.list(page);
  }
}
