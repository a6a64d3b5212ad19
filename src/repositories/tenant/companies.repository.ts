/**
 * All SQL about the companies of one workspace.
 */
import { sql } from 'kysely';
import { param } from '../../db/query-templates.js';
import { normalizeText } from '../../schemas/normalize.js';
import type { Company } from '../../schemas/resources.js';
import { containsPattern, newestFirstPage, type Page, type PageResult } from '../page.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export interface CompanyFilters {
  /** case-insensitive substring of the name; % and _ are literal */
  name?: string;
  /** case-insensitive exact domain */
  domain?: string;
}

const COLUMNS = ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'] as const;

export class CompaniesRepository extends KeyedTenantRepository {
  protected readonly table = 'companies' as const;

  findById(id: string): Promise<Company | undefined> {
    return this.scope.selectFrom('companies').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  list(filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.scope.snapshot((scope) => {
      let matching = scope.selectFrom('companies');
      if (filters.name !== undefined) {
        const pattern = containsPattern(normalizeText(filters.name));
        matching = matching.where(sql<boolean>`${sql.ref('name_normalized')} like ${pattern} escape '\\'`);
      }
      if (filters.domain !== undefined) {
        matching = matching.where('domain_normalized', '=', normalizeText(filters.domain));
      }
      return newestFirstPage(this.codec, matching, COLUMNS, page);
    });
  }

  /** The oldest company with this domain (compared lower-case), C6.1. */
  async findByDomain(domain: string): Promise<Company | undefined> {
    return this.scope
      .template('companies.byDomain', (q) =>
        q.selectFrom('companies').select(COLUMNS).where('domain_normalized', '=', param('domain')).orderBy('created_at').orderBy('id').limit(1),
      )
      .first({ domain: normalizeText(domain) });
  }

  /** The oldest company with this name (compared lower-case): a network's organisation, C6.1. */
  async findByName(name: string): Promise<Company | undefined> {
    return this.scope
      .template('companies.byName', (q) =>
        q.selectFrom('companies').select(COLUMNS).where('name_normalized', '=', param('name')).orderBy('created_at').orderBy('id').limit(1),
      )
      .first({ name: normalizeText(name) });
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(companies: readonly Company[]): Promise<number> {
    return this.scope.insertRows(
      'companies',
      companies.map((company) => ({
        id: company.id,
        name: company.name,
        name_normalized: normalizeText(company.name),
        domain: company.domain,
        domain_normalized: company.domain === null ? null : normalizeText(company.domain),
        description: company.description,
        employees: company.employees,
        main_industry: company.main_industry,
        created_at: company.created_at,
      })),
    );
  }
}
