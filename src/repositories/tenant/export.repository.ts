/**
 * Exports (CONTRACT C11.5) read a list in chunks by keyset, newest first,
 * each chunk a bounded statement after the last row of the one before, with
 * the list's own filters and without its total: memory stays that of one
 * chunk whatever the size of the list.
 */
import { param } from '../../db/query-templates.js';
import type { Company, Identity, Lead } from '../../schemas/resources.js';
import { afterKey, type Keyset } from '../page.js';
import { COMPANY_COLUMNS, CompaniesRepository, type CompanyFilters } from './companies.repository.js';
import { IDENTITY_COLUMNS, IdentitiesRepository, type IdentityFilters } from './identities.repository.js';
import { filterValues, matching, shapeOf, type LeadFilters } from './lead-filters.js';
import { LEAD_COLUMNS, LeadsRepository } from './leads.repository.js';
import { TenantRepository } from './tenant-repository.js';

export class ExportRepository extends TenantRepository {
  /** Up to `limit` leads matching `filters` after `after`, newest first (the list's order). */
  async leads(filters: LeadFilters, after: Keyset | undefined, limit: number): Promise<Lead[]> {
    const leads = new LeadsRepository(this.scope);
    const rows = await this.scope
      .template(`export.leads:${shapeOf(filters)}${after === undefined ? '' : ':after'}`, (q) => {
        const query = matching(q, filters);
        return (after === undefined ? query : query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(param('afterAt'), param('afterId')))))
          .select(LEAD_COLUMNS)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(param<number>('limit'));
      })
      .all({ ...filterValues(filters), limit, afterAt: after?.at, afterId: after?.id });
    return rows.map((row) => leads.toLead(row));
  }

  /** Up to `limit` identities matching `filters` after `after`, newest first (the list's order). */
  async identities(filters: IdentityFilters, after: Keyset | undefined, limit: number): Promise<Identity[]> {
    const identities = new IdentitiesRepository(this.scope);
    const rows = await afterKey(identities.matching(this.scope, filters), after)
      .select(IDENTITY_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => identities.toIdentity(row));
  }

  /** Up to `limit` companies matching `filters` after `after`, newest first (the list's order), without the list's count. */
  companies(filters: CompanyFilters, after: Keyset | undefined, limit: number): Promise<Company[]> {
    return afterKey(new CompaniesRepository(this.scope).matching(this.scope, filters), after)
      .select(COMPANY_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
