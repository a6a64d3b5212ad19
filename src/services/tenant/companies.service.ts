/**
 * Companies of a workspace: read-only through the API, written by import,
 * seed and lead intelligence (C6.1), with the identities linked to each.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { CompanyFilters } from '../../repositories/tenant/companies.repository.js';
import type { Company, Identity } from '../../schemas/resources.js';
import { NotFoundError } from '../errors.js';
import { pathId } from '../ids.js';

export class CompaniesService {
  constructor(private readonly store: WorkspaceStore) {}

  list(filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.store.repos.companies.list(filters, page);
  }

  /** The identities linked to a company (C6.1), newest first. */
  async identities(id: string, page: Page): Promise<PageResult<Identity>> {
    const company = await this.get(id);
    return this.store.repos.identities.listByCompany(company.id, page);
  }

  async get(id: string): Promise<Company> {
    const company = await this.store.repos.companies.findById(pathId(id, 'company'));
    if (company === undefined) throw new NotFoundError('company');
    return company;
  }
}
