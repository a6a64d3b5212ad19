/**
 * The rules of visitor identities (CONTRACT C4.3 to C4.6): defaults on create,
 * updates by replacement or merge patch, and the identity's activity and
 * personalities.
 */
import type { WorkspaceStore } from '../../repositories/index.js';
import type { Page, PageResult } from '../../repositories/page.js';
import type { IdentityChanges, IdentityFilters, NewIdentity } from '../../repositories/tenant/identities.repository.js';
import type { IdentityCreateInput, IdentityUpdateInput } from '../../schemas/inputs.js';
import { now } from '../../schemas/instants.js';
import type { Activity, Identity, Personality } from '../../schemas/resources.js';
import { NotFoundError } from '../errors.js';
import { canonicalId, newId, pathId } from '../ids.js';
import type { UpdateMode } from './leads.service.js';
import { emitEvent } from '../webhooks/events.js';

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

  create(input: IdentityCreateInput): Promise<Identity> {
    const identity = buildIdentity(input, { id: newId(), createdAt: now() });
    return this.store.transaction(async (repos) => {
      const created = await repos.identities.insert(identity);
      await emitEvent(repos, 'identity.created', created, identity.created_at);
      return created;
    });
  }

  async update(id: string, update: IdentityUpdateInput, mode: UpdateMode): Promise<Identity> {
    const changes: IdentityChanges = {};
    if (update.name !== undefined) changes.name = update.name;
    if (update.is_favorite !== undefined) changes.is_favorite = update.is_favorite;
    if (update.traits !== undefined) {
      changes.traits = mode === 'replace' ? { mode, value: update.traits } : { mode, patch: update.traits };
    }
    const identityId = pathId(id, 'identity');
    const identity = await this.store.transaction(async (repos) => {
      const updated = await repos.identities.update(identityId, changes);
      if (updated !== undefined) {
        await emitEvent(repos, 'identity.updated', updated);
        // its rule segments are evaluated again (C6.4)
        const visitors = await repos.visitors.forIdentity(updated.id);
        await repos.intelligenceDue.markDue([...new Set([updated.visitor_id, ...visitors.map((visitor) => visitor.id)])], now());
      }
      return updated;
    });
    if (identity === undefined) throw new NotFoundError('identity');
    return identity;
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
