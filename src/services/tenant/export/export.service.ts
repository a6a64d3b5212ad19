/**
 * Exports (CONTRACT C11.5): every lead, identity or company matching a
 * list's filters, as chunks read by keyset one after another, pulled by the
 * consumer (an async generator: the next chunk is read only when the last
 * one has been taken), so an export of any size holds one chunk in memory.
 */
import type { WorkspaceStore } from '../../../repositories/index.js';
import type { Keyset } from '../../../repositories/page.js';
import type { CompanyFilters } from '../../../repositories/tenant/companies.repository.js';
import type { IdentityFilters } from '../../../repositories/tenant/identities.repository.js';
import type { LeadFilters } from '../../../repositories/tenant/leads.repository.js';
import type { Company, Identity, Lead } from '../../../schemas/resources.js';

export const EXPORT_CHUNK = 1000;

type ReadChunk<T> = (after: Keyset | undefined, limit: number) => Promise<T[]>;

async function* chunks<T extends { created_at: string; id: string }>(read: ReadChunk<T>, size: number): AsyncGenerator<T[]> {
  let after: Keyset | undefined;
  for (;;) {
    const rows = await read(after, size);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < size || last === undefined) return;
    after = { at: last.created_at, id: last.id };
  }
}

export class ExportService {
  constructor(private readonly store: WorkspaceStore) {}

  leads(filters: LeadFilters, size = EXPORT_CHUNK): AsyncGenerator<Lead[]> {
    return chunks((after, limit) => this.store.repos.exports.leads(filters, after, limit), size);
  }

  identities(filters: IdentityFilters, size = EXPORT_CHUNK): AsyncGenerator<Identity[]> {
    return chunks((after, limit) => this.store.repos.exports.identities(filters, after, limit), size);
  }

  companies(filters: CompanyFilters, size = EXPORT_CHUNK): AsyncGenerator<Company[]> {
    return chunks((after, limit) => this.store.repos.exports.companies(filters, after, limit), size);
  }
}
