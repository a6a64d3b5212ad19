/**
 * Searches of leads, identities and companies (CONTRACT C11.3): the rows a
 * search's groups match, in its sort (ties by id), after a keyset position,
 * with the exact total, on one snapshot. Built with Kysely through the
 * TenantScope, so every statement carries the workspace and is audited.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { Company, Identity, Lead } from '../../schemas/resources.js';
import type { Keyset } from '../page.js';
import { COMPANY_COLUMNS } from './companies.repository.js';
import { IDENTITY_COLUMNS, IdentitiesRepository } from './identities.repository.js';
import { LEAD_COLUMNS, LeadsRepository } from './leads.repository.js';
import { afterPosition, searchWhere, sortExpression, type SearchCondition, type SearchSort, type SearchTable } from './search-filter.js';
import { countLeads } from './lead-totals.js';
import { asLeadFilters } from './search-lead-totals.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export interface SearchRequest {
  groups: readonly (readonly SearchCondition[])[];
  sort: SearchSort;
  /** rows to read (the page's limit and one more, to know whether more follow) */
  limit: number;
  after?: Keyset;
}

export interface SearchResult<T> {
  items: T[];
  /** the keyset position of each item, for the cursor after it */
  positions: Keyset[];
  total: number;
}

export class RecordSearchRepository extends TenantRepository {
  leads(request: SearchRequest): Promise<SearchResult<Lead>> {
    const leads = new LeadsRepository(this.scope);
    // the list's filters are counted from lead_counts, not row by row (search-lead-totals.ts)
    const filters = asLeadFilters(request.groups);
    const total = filters === undefined ? undefined : (scope: TenantScope) => countLeads(scope, filters);
    return this.run('leads', LEAD_COLUMNS, request, (row) => leads.toLead(row as never), total);
  }

  identities(request: SearchRequest): Promise<SearchResult<Identity>> {
    const identities = new IdentitiesRepository(this.scope);
    return this.run('identities', IDENTITY_COLUMNS, request, (row) => identities.toIdentity(row as never));
  }

  companies(request: SearchRequest): Promise<SearchResult<Company>> {
    return this.run('companies', COMPANY_COLUMNS, request, (row) => {
      const { sort_key: _key, ...company } = row;
      return company as unknown as Company;
    });
  }

  /** The matching rows of the table from a keyset position on, in the sort, and how many match in all. */
  private run<T>(
    table: SearchTable,
    columns: readonly string[],
    request: SearchRequest,
    toItem: (row: Record<string, unknown>) => T,
    total?: (scope: TenantScope) => Promise<number>,
  ): Promise<SearchResult<T>> {
    const { codec } = this;
    return this.scope.snapshot(async (scope) => {
      const all = scope.selectFrom(table) as unknown as SelectQueryBuilder<Schema, SearchTable, object>;
      const matching = request.groups.length === 0 ? all : all.where((eb) => searchWhere(eb, codec, request.groups));
      const counted =
        total === undefined ? codec.count((await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow()).total) : await total(scope);
      const { sort, after } = request;
      const rows = (await (after === undefined ? matching : matching.where(afterPosition(sort, after.at, after.id)))
        .select(columns as never)
        .select(sortExpression(sort).as('sort_key'))
        .orderBy(sortExpression(sort), sort.order)
        .orderBy('id', sort.order)
        .limit(request.limit)
        .execute()) as Record<string, unknown>[];
      return {
        items: rows.map((row) => toItem(row)),
        positions: rows.map((row) => ({ at: String(row.sort_key), id: String(row.id) })),
        total: counted,
      };
    });
  }
}
