/**
 * The rules of leads (CONTRACT C4.1, C4.2, C3.7): defaults on create, references
 * that must stay inside the workspace, and updates by replacement or merge patch.
 */
import type { Repositories, Store } from '../repositories/index.js';
import type { LeadChanges, LeadFilters } from '../repositories/leads.repository.js';
import type { Page, PageResult } from '../repositories/repository.js';
import { now } from '../schemas/instants.js';
import type { JsonObject } from '../schemas/json.js';
import type { Lead } from '../schemas/resources.js';
import { ForbiddenReferenceError, NotFoundError } from './errors.js';
import { canonicalId, newId, pathId } from './ids.js';

export interface LeadInput {
  visitor_id?: string;
  code?: string | null;
  source?: string | null;
  properties?: JsonObject;
  location?: JsonObject;
  identity_id?: string | null;
  session_id?: string | null;
  company_id?: string | null;
  summary?: JsonObject | null;
}

export interface LeadUpdate {
  properties?: JsonObject;
  location?: JsonObject;
  summary?: JsonObject | null;
  company_id?: string | null;
}

export type UpdateMode = 'replace' | 'merge';

const optionalId = (id: string | null | undefined) => (id === undefined || id === null ? null : canonicalId(id));

export class LeadsService {
  constructor(private readonly store: Store) {}

  private get repos(): Repositories {
    return this.store.repos;
  }

  list(workspaceId: string, filters: LeadFilters, page: Page): Promise<PageResult<Lead>> {
    return this.repos.leads.list(workspaceId, filters, page);
  }

  async get(workspaceId: string, id: string): Promise<Lead> {
    const lead = await this.repos.leads.findById(workspaceId, pathId(id, 'lead'));
    if (lead === undefined) throw new NotFoundError('lead');
    return lead;
  }

  create(workspaceId: string, input: LeadInput): Promise<Lead> {
    const identityId = optionalId(input.identity_id);
    const companyId = optionalId(input.company_id);
    return this.store.transaction(async (repos) => {
      if (identityId !== null && !(await repos.identities.exists(workspaceId, identityId))) {
        throw new ForbiddenReferenceError('identity_id');
      }
      if (companyId !== null && !(await repos.companies.exists(workspaceId, companyId))) {
        throw new ForbiddenReferenceError('company_id');
      }
      const createdAt = now();
      return repos.leads.insert(workspaceId, {
        id: newId(),
        visitor_id: input.visitor_id === undefined ? newId() : canonicalId(input.visitor_id),
        code: input.code ?? null,
        source: input.source ?? null,
        created_at: createdAt,
        updated_at: createdAt,
        properties: input.properties ?? {},
        location: input.location ?? {},
        identity_id: identityId,
        session_id: optionalId(input.session_id),
        summary: input.summary ?? null,
        company_id: companyId,
      });
    });
  }

  update(workspaceId: string, id: string, update: LeadUpdate, mode: UpdateMode): Promise<Lead> {
    const leadId = pathId(id, 'lead');
    const changes: LeadChanges = {};
    for (const field of ['properties', 'location'] as const) {
      const value = update[field];
      if (value !== undefined) changes[field] = mode === 'replace' ? { mode, value } : { mode, patch: value };
    }
    if (update.summary !== undefined) {
      changes.summary =
        mode === 'replace' || update.summary === null
          ? { mode: 'replace', value: update.summary }
          : { mode: 'merge', patch: update.summary };
    }
    const companyId = update.company_id === undefined ? undefined : optionalId(update.company_id);
    if (companyId !== undefined) changes.company_id = companyId;
    return this.store.transaction(async (repos) => {
      if (companyId !== undefined && companyId !== null && !(await repos.companies.exists(workspaceId, companyId))) {
        // A lead that is not in the workspace answers 404 whatever the body says.
        if ((await repos.leads.findById(workspaceId, leadId)) === undefined) throw new NotFoundError('lead');
        throw new ForbiddenReferenceError('company_id');
      }
      const lead = await repos.leads.update(workspaceId, leadId, changes, now());
      if (lead === undefined) throw new NotFoundError('lead');
      return lead;
    });
  }
}
