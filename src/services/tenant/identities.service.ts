/**
 * The rules of visitor identities (CONTRACT C4.3 to C4.6): defaults on create,
 * updates by replacement or merge patch, and the identity's activity and
 * personalities.
 */
import type { TenantRepositories, WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { IdentityChanges, IdentityFilters, NewIdentity } from '../../repositories/tenant/identities.repository.js';
import type { IdentityCreateInput, IdentityUpdateInput } from '../../schemas/inputs.js';
import { now } from '../../schemas/instants.js';
import type { Activity, Identity, Personality } from '../../schemas/resources.js';
import { NotFoundError } from '../errors.js';
import { canonicalId, newId, pathId } from '../ids.js';
import type { UpdateMode } from './leads.service.js';
import { emitEvent } from '../webhooks/events.js';
import { inOperation } from './batch-errors.js';
import { upsertPaths, withoutNulls, type IdentityOutcome, type IdentityUpsert } from './identity-batch.js';

/** Personalities are returned without pagination; a visitor has a handful. */
export const MAX_PERSONALITIES = 1000;

/** What the server decides for a new identity (C4.3); an import may give its own. */
export interface IdentityStamps {
  id: string;
  createdAt: string;
  firstSeen?: string;
  lastSeen?: string;
  ip?: string | null;
  city?: string | null;
  country?: string | null;
  isFavorite?: boolean;
}

/** A new identity from a create body, with C4.3's defaults. */
export function buildIdentity(input: IdentityCreateInput, stamps: IdentityStamps): NewIdentity {
  return {
    id: stamps.id,
    visitor_id: input.visitor_id === undefined ? newId() : canonicalId(input.visitor_id),
    email: input.email ?? null,
    name: input.name ?? null,
    traits: input.traits ?? {},
    first_seen: stamps.firstSeen ?? stamps.createdAt,
    last_seen: stamps.lastSeen ?? stamps.createdAt,
    ip: stamps.ip ?? null,
    city: stamps.city ?? null,
    country: stamps.country ?? null,
    is_favorite: stamps.isFavorite ?? false,
    created_at: stamps.createdAt,
  };
}

export class IdentitiesService {
  constructor(private readonly store: WorkspaceStore) {}

  list(filters: IdentityFilters, page: Page): Promise<PageResult<Identity>> {
    return this.store.repos.identities.list(filters, page);
  }

  async get(id: string): Promise<Identity> {
    const identity = await this.store.repos.identities.findById(pathId(id, 'identity'));
    if (identity === undefined) throw new NotFoundError('identity');
    return identity;
  }

  /** An identity with the company linked to it (C6.1), named: the dashboard's identity page links it (C9.4). */
  async getWithCompany(id: string): Promise<Identity & { company: { id: string; name: string } | null }> {
    const identity = await this.get(id);
    const companyId = await this.store.repos.identities.companyOf(identity.id);
    const [company] = companyId === null ? [] : await this.store.repos.companies.labelsByIds([companyId]);
    return { ...identity, company: company ?? null };
  }

  create(input: IdentityCreateInput): Promise<Identity> {
    return this.store.transaction((repos) => createIdentityIn(repos, input));
  }

  async update(id: string, update: IdentityUpdateInput, mode: UpdateMode): Promise<Identity> {
    const changes: IdentityChanges = {};
    if (update.name !== undefined) changes.name = update.name;
    if (update.is_favorite !== undefined) changes.is_favorite = update.is_favorite;
    if (update.traits !== undefined) {
      changes.traits = mode === 'replace' ? { mode, value: update.traits } : { mode, patch: update.traits };
    }
    const identityId = pathId(id, 'identity');
    const identity = await this.store.transaction((repos) => updateIdentityIn(repos, identityId, changes));
    if (identity === undefined) throw new NotFoundError('identity');
    return identity;
  }

  /** C11.4: each identity upserted by email, in order, in one transaction (identity-batch.ts). */
  batch(upserts: readonly IdentityUpsert[]): Promise<IdentityOutcome[]> {
    return this.store.transaction(async (repos) => {
      const outcomes: IdentityOutcome[] = [];
      for (const [index, upsert] of upserts.entries()) {
        outcomes.push(await inOperation(upsertPaths(index), () => upsertIdentityIn(repos, upsert)));
      }
      return outcomes;
    });
  }

  async activity(identityId: string, page: Page): Promise<PageResult<Activity>> {
    const id = pathId(identityId, 'identity');
    if (!(await this.store.repos.identities.exists(id))) throw new NotFoundError('identity');
    return this.store.repos.activity.listForIdentity(id, page);
  }

  async personalities(identityId: string): Promise<Personality[]> {
    const identity = await this.get(identityId);
    return this.store.repos.personalities.listForVisitor(identity.visitor_id, MAX_PERSONALITIES);
  }
}

/** C4.3 inside an open transaction: the single create and each new identity of a batch. */
async function createIdentityIn(repos: TenantRepositories, input: IdentityCreateInput): Promise<Identity> {
  const identity = buildIdentity(input, { id: newId(), createdAt: now() });
  const created = await repos.identities.insert(identity);
  await emitEvent(repos, 'identity.created', created, identity.created_at);
  return created;
}

/** C4.4 inside an open transaction: the single update and each known identity of a batch. */
async function updateIdentityIn(repos: TenantRepositories, identityId: string, changes: IdentityChanges): Promise<Identity | undefined> {
  const updated = await repos.identities.update(identityId, changes);
  if (updated !== undefined) {
    await emitEvent(repos, 'identity.updated', updated);
    // its rule segments are evaluated again (C6.4)
    const visitors = await repos.visitors.forIdentity(updated.id);
    await repos.intelligenceDue.markDue([...new Set([updated.visitor_id, ...visitors.map((visitor) => visitor.id)])], now());
  }
  return updated;
}

/** An identity of a batch: updated when its email is known (traits merged, RFC 7396), created otherwise. */
async function upsertIdentityIn(repos: TenantRepositories, upsert: IdentityUpsert): Promise<IdentityOutcome> {
  const known = await repos.identities.findByEmail(upsert.email);
  if (known === undefined) {
    const input: IdentityCreateInput = { email: upsert.email, traits: withoutNulls(upsert.traits ?? {}) };
    if (upsert.name !== undefined) input.name = upsert.name;
    return { outcome: 'created', data: await createIdentityIn(repos, input) };
  }
  const changes: IdentityChanges = {};
  if (upsert.name !== undefined) changes.name = upsert.name;
  if (upsert.traits !== undefined) changes.traits = { mode: 'merge', patch: upsert.traits };
  const updated = await updateIdentityIn(repos, known.id, changes);
  if (updated === undefined) throw new NotFoundError('identity');
  return { outcome: 'updated', data: updated };
}
