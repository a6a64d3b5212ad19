/**
 * The rules of leads (CONTRACT C4.1, C4.2, C3.7): defaults on create, references
 * that must stay inside the workspace, and updates by replacement or merge patch.
 */
import type { TenantRepositories, WorkspaceStore } from '../../repositories/index.js';
import type { Keyset, Page, PageResult } from '../../repositories/page.js';
import type { LeadText } from '../../repositories/tenant/lead-text.js';
import type { LeadChanges, LeadFilters, LeadSort, NewLead, SortedPage } from '../../repositories/tenant/leads.repository.js';
import type { LeadCreateInput, LeadUpdateInput } from '../../schemas/inputs.js';
import { now } from '../../schemas/instants.js';
import type { Lead } from '../../schemas/resources.js';
import { ForbiddenReferenceError, NotFoundError } from '../errors.js';
import { canonicalId, newId, optionalId, pathId } from '../ids.js';
import { emitEvent } from '../webhooks/events.js';
import { inOperation } from './batch-errors.js';
import { operationPaths, type LeadOperation, type LeadOutcome } from './lead-batch.js';

export type UpdateMode = 'replace' | 'merge';

/** The people and companies a page of leads names, by id. */
export interface LeadLabels {
  people: Record<string, { name: string | null; email: string | null }>;
  companies: Record<string, { name: string }>;
}

/** What the server decides for a new lead; an import may give its own id and timestamps. */
export interface LeadStamps {
  id: string;
  createdAt: string;
  updatedAt: string;
}

/** A new lead from a create body, with C4.1's defaults. */
export function buildLead(input: LeadCreateInput, stamps: LeadStamps): NewLead {
  return {
    id: stamps.id,
    visitor_id: input.visitor_id === undefined ? newId() : canonicalId(input.visitor_id),
    code: input.code ?? null,
    source: input.source ?? null,
    created_at: stamps.createdAt,
    updated_at: stamps.updatedAt,
    properties: input.properties ?? {},
    location: input.location ?? {},
    identity_id: optionalId(input.identity_id),
    session_id: optionalId(input.session_id),
    summary: input.summary ?? null,
    company_id: optionalId(input.company_id),
  };
}

export class LeadsService {
  constructor(private readonly store: WorkspaceStore) {}

  /** A page of leads in `sort`'s order (C9.3), with each one's keyset for the next cursor. */
  list(filters: LeadFilters, page: Page, sort: LeadSort = '-created_at'): Promise<SortedPage> {
    return this.store.repos.leads.listSorted(sort, filters, page);
  }

  /**
   * `list` for the API's response: in the default order, on SQLite, each lead
   * as its JSON text (lead-text.ts); otherwise as `list` reads them.
   */
  async listText(filters: LeadFilters, page: Page, sort: LeadSort = '-created_at'): Promise<PageResult<Lead | LeadText> & { keys: Keyset[] }> {
    if (sort !== '-created_at') return this.list(filters, page, sort);
    const result = await this.store.repos.leads.listText(filters, page);
    return { ...result, keys: result.items.map((lead) => ({ at: lead.created_at, id: lead.id })) };
  }

  /** `get` for the API's response: on SQLite as its JSON text (lead-text.ts). */
  async getText(id: string): Promise<Lead | LeadText> {
    const lead = await this.store.repos.leads.findText(pathId(id, 'lead'));
    if (lead === undefined) throw new NotFoundError('lead');
    return lead;
  }

  /** Who and which company each of these leads names, for the dashboard's table (C9.3): one statement each. */
  async labels(leads: readonly Lead[]): Promise<LeadLabels> {
    const unique = (ids: (string | null)[]) => [...new Set(ids.filter((id): id is string => id !== null))];
    const [people, companies] = await Promise.all([
      this.store.repos.identities.labelsByIds(unique(leads.map((lead) => lead.identity_id))),
      this.store.repos.companies.labelsByIds(unique(leads.map((lead) => lead.company_id))),
    ]);
    return {
      people: Object.fromEntries(people.map(({ id, name, email }) => [id, { name, email }])),
      companies: Object.fromEntries(companies.map(({ id, name }) => [id, { name }])),
    };
  }

  async get(id: string): Promise<Lead> {
    const lead = await this.store.repos.leads.findById(pathId(id, 'lead'));
    if (lead === undefined) throw new NotFoundError('lead');
    return lead;
  }

  create(input: LeadCreateInput): Promise<Lead> {
    return this.store.transaction((repos) => createLeadIn(repos, input));
  }

  /** Deletes a lead (C8.4); its day's counts lose it in the same transaction. */
  async delete(id: string): Promise<void> {
    const leadId = pathId(id, 'lead');
    await this.store.transaction(async (repos) => {
      const deleted = await repos.leads.deleteWhere({ id: leadId });
      if (deleted.length === 0) throw new NotFoundError('lead');
      for (const lead of deleted) await emitEvent(repos, 'lead.deleted', lead);
    });
  }

  update(id: string, update: LeadUpdateInput, mode: UpdateMode): Promise<Lead> {
    const leadId = pathId(id, 'lead');
    return this.store.transaction((repos) => updateLeadIn(repos, leadId, update, mode));
  }

  /** C11.4: every operation in one transaction, in order; the first that fails undoes them all. */
  batch(operations: readonly LeadOperation[]): Promise<LeadOutcome[]> {
    return this.store.transaction(async (repos) => {
      const outcomes: LeadOutcome[] = [];
      for (const [index, operation] of operations.entries()) {
        outcomes.push(await inOperation(operationPaths(index), () => runLeadOperation(repos, operation)));
      }
      return outcomes;
    });
  }
}

async function runLeadOperation(repos: TenantRepositories, operation: LeadOperation): Promise<LeadOutcome> {
  if (operation.op === 'create') return { outcome: 'created', data: await createLeadIn(repos, operation.body) };
  return { outcome: 'updated', data: await updateLeadIn(repos, operation.id, operation.body, 'replace') };
}

/** C4.1 inside an open transaction: the single create and each create of a batch. */
async function createLeadIn(repos: TenantRepositories, input: LeadCreateInput): Promise<Lead> {
  const createdAt = now();
  const lead = buildLead(input, { id: newId(), createdAt, updatedAt: createdAt });
  if (lead.identity_id !== null && !(await repos.identities.exists(lead.identity_id))) {
    throw new ForbiddenReferenceError('identity_id');
  }
  if (lead.company_id !== null && !(await repos.companies.exists(lead.company_id))) {
    throw new ForbiddenReferenceError('company_id');
  }
  const created = await repos.leads.insert(lead);
  // C6.2: a lead of a visitor with events is scored within 60 s, by the intelligence worker
  // (a visitor id made here just now has no events: no statement to ask)
  if (input.visitor_id !== undefined && (await repos.visitors.find(created.visitor_id)) !== undefined) {
    await repos.intelligenceDue.markDue([created.visitor_id], createdAt);
  }
  await emitEvent(repos, 'lead.created', created, createdAt);
  return created;
}

/** C4.2 inside an open transaction: the single update and each update of a batch. */
async function updateLeadIn(repos: TenantRepositories, leadId: string, update: LeadUpdateInput, mode: UpdateMode): Promise<Lead> {
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
  if (companyId !== undefined && companyId !== null && !(await repos.companies.exists(companyId))) {
    // A lead that is not in the workspace answers 404 whatever the body says.
    if ((await repos.leads.findById(leadId)) === undefined) throw new NotFoundError('lead');
    throw new ForbiddenReferenceError('company_id');
  }
  const at = now();
  const lead = await repos.leads.update(leadId, changes, at);
  if (lead === undefined) throw new NotFoundError('lead');
  await emitEvent(repos, 'lead.updated', lead, at);
  return lead;
}
