/**
 * Workspace users (CONTRACT C4.7): only members of the caller's workspace,
 * each with its role and the time it joined.
 */
import type { Repositories } from '../repositories/index.js';
import type { Page, PageResult } from '../repositories/repository.js';
import type { UserFilters } from '../repositories/users.repository.js';
import type { WorkspaceUser } from '../schemas/resources.js';
import { NotFoundError } from './errors.js';
import { pathId } from './ids.js';

export class UsersService {
  constructor(private readonly repos: Repositories) {}

  list(workspaceId: string, filters: UserFilters, page: Page): Promise<PageResult<WorkspaceUser>> {
    return this.repos.users.listMembers(workspaceId, filters, page);
  }

  async get(workspaceId: string, id: string): Promise<WorkspaceUser> {
    const user = await this.repos.users.findMember(workspaceId, pathId(id, 'user'));
    if (user === undefined) throw new NotFoundError('user');
    return user;
  }
}
