/**
 * Visitor lists (segments) of a workspace: read-only through the API.
 */
import type { Repositories } from '../repositories/index.js';
import type { Page, PageResult } from '../repositories/repository.js';
import type { VisitorList } from '../schemas/resources.js';

export class ListsService {
  constructor(private readonly repos: Repositories) {}

  list(workspaceId: string, page: Page): Promise<PageResult<VisitorList>> {
    return this.repos.lists.list(workspaceId, page);
  }
}
