/**
 * All SQL about companies, always within one workspace.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Schema } from '../db/schema.js';
import type { Company } from '../schemas/resources.js';
import { containsPattern, TenantRepository, type Page, type PageResult } from './repository.js';

export interface CompanyFilters {
  /** case-insensitive substring of the name; % and _ are literal */
  name?: string;
  /** case-insensitive exact domain */
  domain?: string;
}

const COLUMNS = ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'] as const;

export function normalizeText(text: string): string {
  return text.toLowerCase();
}

export class CompaniesRepository extends TenantRepository {
  protected readonly table = 'companies' as const;


  findById(workspaceId: string, id: string): Promise<Company | undefined> {
    return this.db
      .selectFrom('companies')
      .select(COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  list(workspaceId: string, filters: CompanyFilters, page: Page): Promise<PageResult<Company>> {
    return this.snapshot(async (db) => {
      let matching: SelectQueryBuilder<Schema, 'companies', object> = db
        .selectFrom('companies')
        .where('workspace_id', '=', workspaceId);
      if (filters.name !== undefined) {
        const pattern = containsPattern(normalizeText(filters.name));
        matching = matching.where(sql<boolean>`${sql.ref('name_normalized')} like ${pattern} escape '\\'`);
      }
      if (filters.domain !== undefined) {
        matching = matching.where('domain_normalized', '=', normalizeText(filters.domain));
      }
      return this.newestFirstPage(matching, COLUMNS, page);
    });
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(workspaceId: string, companies: readonly Company[]): Promise<number> {
    return this.insertRows(
      this.db,
      'companies',
      companies.map((company) => ({
        workspace_id: workspaceId,
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
