/**
 * Every service of one store, built once and shared by the HTTP routes and
 * the CLI, which call the same code.
 */
import type { Store } from '../repositories/index.js';
import { ApiKeysService } from './api-keys.service.js';
import { CompaniesService } from './companies.service.js';
import { IdentitiesService } from './identities.service.js';
import { ImportService } from './import/import.service.js';
import { LeadsService } from './leads.service.js';
import { ListsService } from './lists.service.js';
import { SeedService } from './seed.service.js';
import { UsersService } from './users.service.js';
import { WorkspacesService } from './workspaces.service.js';

export interface Services {
  leads: LeadsService;
  identities: IdentitiesService;
  companies: CompaniesService;
  lists: ListsService;
  users: UsersService;
  workspaces: WorkspacesService;
  apiKeys: ApiKeysService;
  imports: ImportService;
  seed: SeedService;
}

export function createServices(store: Store): Services {
  const { repos } = store;
  const workspaces = new WorkspacesService(repos);
  return {
    leads: new LeadsService(store),
    identities: new IdentitiesService(store),
    companies: new CompaniesService(repos),
    lists: new ListsService(repos),
    users: new UsersService(repos),
    workspaces,
    apiKeys: new ApiKeysService(store),
    imports: new ImportService(store),
    seed: new SeedService(store, workspaces),
  };
}
