/**
 * Workspaces: created and listed by operators through the CLI, and looked up
 * by the id an operator types (the CLI's way to a WorkspaceId).
 */
import type { OperatorRepositories } from '../../repositories/index.js';
import type { Workspace } from '../../repositories/operator/workspaces.repository.js';
import { LIMITS } from '../../schemas/fields.js';
import { now } from '../../schemas/instants.js';
import { isStorableText } from '../../schemas/text-guards.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { isTimeZone } from '../digests/period.js';
import { InvalidRequestError, NotFoundError } from '../errors.js';
import { newId, pathId } from '../ids.js';

export class WorkspacesService {
  constructor(private readonly repos: OperatorRepositories) {}

  async create(name: string): Promise<Pick<Workspace, 'id' | 'name' | 'created_at'>> {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > LIMITS.name || !isStorableText(trimmed)) {
      throw new InvalidRequestError(`workspace name must be 1 to ${LIMITS.name} characters of text`, { fields: { name: `must be 1 to ${LIMITS.name} characters of text` } });
    }
    const workspace = await this.repos.workspaces.insert({ id: newId(), name: trimmed, created_at: now() });
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

  /** The workspace an operator names by id; not found when there is none. */
  async resolve(id: string): Promise<WorkspaceId> {
    return (await this.get(id)).id;
  }

  /** Sets the time zone of the workspace's digests (C10.4): an IANA name such as Europe/Berlin, or UTC. */
  async setTimeZone(id: WorkspaceId, timeZone: string): Promise<string> {
    if (!isTimeZone(timeZone)) {
      const problem = 'must be an IANA time zone name such as Europe/Berlin or America/New_York, or UTC';
      throw new InvalidRequestError(`time_zone ${problem}`, { fields: { time_zone: problem } });
    }
    if (!(await this.repos.workspaces.setTimeZone(id, timeZone))) throw new NotFoundError('workspace');
    return timeZone;
  }

  isEmpty(): Promise<boolean> {
    return this.repos.workspaces.isEmpty();
  }
}
