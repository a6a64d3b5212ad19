/**
 * Workspaces: created and listed by operators through the CLI.
 */
import type { Repositories } from '../repositories/index.js';
import type { Workspace } from '../repositories/workspaces.repository.js';
import { LIMITS } from '../schemas/fields.js';
import { now } from '../schemas/instants.js';
import { isStorableText } from '../schemas/text-guards.js';
import { InvalidRequestError, NotFoundError } from './errors.js';
import { newId, pathId } from './ids.js';

export class WorkspacesService {
  constructor(private readonly repos: Repositories) {}

  async create(name: string): Promise<Pick<Workspace, 'id' | 'name' | 'created_at'>> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > LIMITS.name || !isStorableText(trimmed)) {
      throw new InvalidRequestError(`workspace name must be 1 to ${LIMITS.name} characters of text`);
    }
    const workspace = { id: newId(), name: trimmed, created_at: now(), prod_last_use: null, dev_last_use: null };
    await this.repos.workspaces.insert(workspace);
    return { id: workspace.id, name: workspace.name, created_at: workspace.created_at };
  }

  list(): Promise<Workspace[]> {
    return this.repos.workspaces.listAll();
  }

  async get(id: string): Promise<Workspace> {
    const workspace = await this.repos.workspaces.findById(pathId(id, 'workspace'));
    if (workspace === undefined) throw new NotFoundError('workspace');
    return workspace;
  }

  isEmpty(): Promise<boolean> {
    return this.repos.workspaces.isEmpty();
  }
}
