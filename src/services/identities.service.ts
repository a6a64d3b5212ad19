/**
 * The rules of visitor identities (CONTRACT C4.3 to C4.6): defaults on create,
 * updates by replacement or merge patch, and the identity's activity and
 * personalities.
 */
import type { IdentityChanges, IdentityFilters } from '../repositories/identities.repository.js';
import type { Repositories, Store } from '../repositories/index.js';
import type { Page, PageResult } from '../repositories/repository.js';
import { now } from '../schemas/instants.js';
import type { JsonObject } from '../schemas/json.js';
import type { Activity, Identity, Personality } from '../schemas/resources.js';
import { NotFoundError } from './errors.js';
import { canonicalId, newId, pathId } from './ids.js';
import type { UpdateMode } from './leads.service.js';

export interface IdentityInput {
  email?: string | null;
  name?: string | null;
  traits?: JsonObject;
  visitor_id?: string;
}

export interface IdentityUpdate {
  name?: string | null;
  traits?: JsonObject;
  is_favorite?: boolean;
}

/** Personalities are returned without pagination; a visitor has a handful. */
export const MAX_PERSONALITIES = 1000;

export class IdentitiesService {
  constructor(private readonly store: Store) {}

  private get repos(): Repositories {
    return this.store.repos;
  }

  list(workspaceId: string, filters: IdentityFilters, page: Page): Promise<PageResult<Identity>> {
    return this.repos.identities.list(workspaceId, filters, page);
  }

  async get(workspaceId: string, id: string): Promise<Identity> {
    const identity = await this.repos.identities.findById(workspaceId, pathId(id, 'identity'));
    if (identity === undefined) throw new NotFoundError('identity');
    return identity;
  }

  create(workspaceId: string, input: IdentityInput): Promise<Identity> {
    const createdAt = now();
    return this.store.transaction((repos) => repos.identities.insert(workspaceId, {
      id: newId(),
      visitor_id: input.visitor_id === undefined ? newId() : canonicalId(input.visitor_id),
      email: input.email ?? null,
      name: input.name ?? null,
      traits: input.traits ?? {},
      first_seen: createdAt,
      last_seen: createdAt,
      ip: null,
      city: null,
      country: null,
      is_favorite: false,
      created_at: createdAt,
    }));
  }

  async update(workspaceId: string, id: string, update: IdentityUpdate, mode: UpdateMode): Promise<Identity> {
    const changes: IdentityChanges = {};
    if (update.name !== undefined) changes.name = update.name;
    if (update.is_favorite !== undefined) changes.is_favorite = update.is_favorite;
    if (update.traits !== undefined) {
      changes.traits = mode === 'replace' ? { mode, value: update.traits } : { mode, patch: update.traits };
    }
    const identityId = pathId(id, 'identity');
    const identity = await this.store.transaction((repos) => repos.identities.update(workspaceId, identityId, changes));
    if (identity === undefined) throw new NotFoundError('identity');
    return identity;
  }

  async activity(workspaceId: string, identityId: string, page: Page): Promise<PageResult<Activity>> {
    const id = pathId(identityId, 'identity');
    if (!(await this.repos.identities.exists(workspaceId, id))) throw new NotFoundError('identity');
    return this.repos.activity.listForIdentity(workspaceId, id, page);
  }

  async personalities(workspaceId: string, identityId: string): Promise<Personality[]> {
    const identity = await this.get(workspaceId, identityId);
    return this.repos.personalities.listForVisitor(workspaceId, identity.visitor_id, MAX_PERSONALITIES);
  }
}
