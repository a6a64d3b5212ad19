/**
 * Companies of a workspace: read-only through the API, written by import and seed.
 */
import type { CompanyFilters } from '../repositories/companies.repository.js';
import type { Repositories } from '../repositories/index.js';
import type { Page, PageResult } from '../repositories/repository.js';
import type { Company } from '../schemas/resources.js';
import { NotFoundError } from './errors.js';
import { pathId } from './ids.js';

export class CompaniesService {
  constructor(private readonly repos: Repositories) {}

  list(workspaceId: string, filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.repos.companies.list(workspaceId, filters, page);
  }

  async get(workspaceId: string, id: string): Promise<Company> {
    const company = await this.repos.companies.findById(workspaceId, pathId(id, 'company'));
    if (company === undefined) throw new NotFoundError('company');
    return company;
  }
}
