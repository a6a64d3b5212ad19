/**
 * The services of one workspace: every rule about a workspace's data, bound
 * to it. The API gate makes one per request (request.workspace), the CLI one
 * per command; each service is built when first used.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { WorkspaceId } from '../../tenancy/workspace-id.js';
import { CompaniesService } from './companies.service.js';
import { IdentitiesService } from './identities.service.js';
import { ImportService } from './import/import.service.js';
import { LeadsService } from './leads.service.js';
import { ListsService } from './lists.service.js';
import { OverviewService } from './overview.service.js';
import { UsersService } from './users.service.js';

export class WorkspaceServices {
  #leads?: LeadsService;
  #identities?: IdentitiesService;
  #companies?: CompaniesService;
  #lists?: ListsService;
  #users?: UsersService;
  #imports?: ImportService;
  #overview?: OverviewService;

  constructor(private readonly store: WorkspaceStore) {}

  get id(): WorkspaceId {
    return this.store.workspaceId;
  }

  get leads(): LeadsService {
    return (this.#leads ??= new LeadsService(this.store));
  }

  get identities(): IdentitiesService {
    return (this.#identities ??= new IdentitiesService(this.store));
  }

  get companies(): CompaniesService {
    return (this.#companies ??= new CompaniesService(this.store));
  }

  get lists(): ListsService {
    return (this.#lists ??= new ListsService(this.store));
  }

  get users(): UsersService {
    return (this.#users ??= new UsersService(this.store));
  }

  get imports(): ImportService {
    return (this.#imports ??= new ImportService(this.store));
  }

  get overview(): OverviewService {
    return (this.#overview ??= new OverviewService(this.store));
  }
}
