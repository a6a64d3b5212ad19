/**
 * Search (CONTRACT C11.3) of a workspace's leads, identities and companies:
 * a checked SearchQuery (search-query.ts) run by the search repository, one
 * page after a keyset position, with the exact total.
 */
import type { WorkspaceStore } from '../../../repositories/index.js';
import type { Keyset } from '../../../repositories/page.js';
import type { SearchResult } from '../../../repositories/tenant/record-search.repository.js';
import type { Company, Identity, Lead } from '../../../schemas/resources.js';
import type { SearchResource } from './search-fields.js';
import type { SearchQuery } from './search-query.js';

export interface SearchItems {
  leads: Lead;
  identities: Identity;
  companies: Company;
}

export class RecordSearchService {
  constructor(private readonly store: WorkspaceStore) {}

  /** One page of the search (one row more than its limit, to know whether more follow), after `after` when given. */
  search<R extends SearchResource>(resource: R, query: SearchQuery, after: Keyset | undefined): Promise<SearchResult<SearchItems[R]>> {
    const request = { groups: query.groups, sort: query.sort, limit: query.limit + 1, ...(after === undefined ? {} : { after }) };
    const search = this.store.repos.recordSearch;
    const run = { leads: () => search.leads(request), identities: () => search.identities(request), companies: () => search.companies(request) };
    return run[resource]() as Promise<SearchResult<SearchItems[R]>>;
  }
}
