/**
 * The operator's key services (workspaces, API keys, site keys), built from
 * a store alone. createServices (../index.ts) includes them; CLI commands
 * that need nothing else build just these, and so start without loading the
 * tracking, intelligence, webhook and account services (issue 14).
 */
import type { Store } from '../../repositories/index.js';
import { ApiKeysService } from './api-keys.service.js';
import { SiteKeysService } from './site-keys.service.js';
import { WorkspacesService } from './workspaces.service.js';

export interface OperatorServices {
  workspaces: WorkspacesService;
  apiKeys: ApiKeysService;
  siteKeys: SiteKeysService;
}

/** `clock`: the clock of key use records (tests move it) */
export function createOperatorServices(store: Store, clock?: () => number): OperatorServices {
  return {
    workspaces: new WorkspacesService(store.operator),
    apiKeys: new ApiKeysService(store, clock),
    siteKeys: new SiteKeysService(store, clock),
  };
}
