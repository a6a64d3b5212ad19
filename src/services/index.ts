/**
 * Every service of one store, built once and shared by the HTTP routes and
 * the CLI, which call the same code. Operator services (workspaces, keys,
 * demo data, dashboard accounts and sessions) are reached directly; a workspace's services only through
 * `forWorkspace`, with a WorkspaceId that a key, a session or the CLI's
 * workspace lookup produced.
 */
import type { Store } from '../repositories/index.js';
import type { WorkspaceId } from '../tenancy/workspace-id.js';
import { AccountsService } from './operator/accounts.service.js';
import { ApiKeysService } from './operator/api-keys.service.js';
import { SeedService } from './operator/seed.service.js';
import { SessionsService } from './operator/sessions.service.js';
import { WorkspacesService } from './operator/workspaces.service.js';
import { WorkspaceServices } from './tenant/index.js';

export type { WorkspaceServices };

export interface Services {
  workspaces: WorkspacesService;
  apiKeys: ApiKeysService;
  seed: SeedService;
  /** dashboard accounts: invitations, password links, passwords */
  accounts: AccountsService;
  /** dashboard sessions: sign-in and its throttle, the session of a request */
  sessions: SessionsService;
  /** the services of one workspace */
  forWorkspace(workspaceId: WorkspaceId): WorkspaceServices;
}

export interface ServiceOptions {
  /** the clock of key use records (tests move it) */
  clock?: () => number;
}

export function createServices(store: Store, options: ServiceOptions = {}): Services {
  const workspaces = new WorkspacesService(store.operator);
  return {
    workspaces,
    apiKeys: new ApiKeysService(store, options.clock),
    seed: new SeedService(store, workspaces),
    accounts: new AccountsService(store),
    sessions: new SessionsService(store, options.clock),
    forWorkspace: (workspaceId) => new WorkspaceServices(store.forWorkspace(workspaceId)),
  };
}
