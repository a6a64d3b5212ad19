/**
 * All SQL about the visitor identities of one workspace.
 */
import type { Selectable } from 'kysely';
import type { Schema } from '../../db/schema.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import type { Identity } from '../../schemas/resources.js';
import type { JsonChange } from '../json-change.js';
import type { Page, PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { KeyedTenantRepository } from './tenant-repository.js';

export interface IdentityFilters {
  /** compared case-insensitively */
  email?: string;
  visitorId?: string;
  isFavorite?: boolean;
  createdAfter?: string;
  createdBefore?: string;
}

export type NewIdentity = Omit<Identity, 'workspace_id'>;

export interface IdentityChanges {
  name?: string | null;
  traits?: JsonChange;
  is_favorite?: boolean;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'visitor_id',
  'email',
  'name',
  'traits',
  'first_seen',
  'last_seen',
  'ip',
  'city',
  'country',
  'is_favorite',
  'created_at',
] as const;

type IdentityRow = Pick<Selectable<Schema['identities']>, (typeof COLUMNS)[number]>;

export class IdentitiesRepository extends KeyedTenantRepository {
  protected readonly table = 'identities' as const;

  async findById(id: string): Promise<Identity | undefined> {
    const row = await this.scope.selectFrom('identities').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && this.toIdentity(row);
  }

  list(filters: IdentityFilters, page: Page): Promise<PageResult<Identity>> {
    return this.scope.snapshot(async (scope) => {
      const matching = this.matching(scope, filters);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await matching
        .select(COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map((row) => this.toIdentity(row)), total: this.codec.count(counted.total) };
    });
  }

  async insert(identity: NewIdentity): Promise<Identity> {
    await this.scope.insertInto('identities', [this.toRow(identity)]).execute();
    return { ...identity, workspace_id: this.scope.workspaceId };
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(identities: readonly NewIdentity[]): Promise<number> {
    return this.scope.insertRows('identities', identities.map((identity) => this.toRow(identity)));
  }

  async update(id: string, changes: IdentityChanges): Promise<Identity | undefined> {
    const { codec } = this;
    const traits = changes.traits;
    const set = {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.is_favorite === undefined ? {} : { is_favorite: codec.bool(changes.is_favorite) }),
      ...(traits === undefined
        ? {}
        : { traits: traits.mode === 'replace' ? codec.json(traits.value) : codec.mergePatch('traits', codec.json(traits.patch)) }),
    };
    if (Object.keys(set).length === 0) return this.findById(id);
    const row = await this.scope.updateTable('identities').set(set).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
    return row && this.toIdentity(row);
  }

  /** How many identities were created on each UTC day from `sinceDay` (YYYY-MM-DD) on; days without any are absent. */
  async countByDay(sinceDay: string): Promise<{ day: string; count: number }[]> {
    const day = this.codec.utcDay('created_at');
    const rows = await this.scope
      .selectFrom('identities')
      .select((eb) => [day.as('day'), eb.fn.countAll().as('count')])
      .where('created_at', '>=', `${sinceDay}T00:00:00.000Z`)
      .groupBy(day)
      .orderBy(day)
      .execute();
    return rows.map((row) => ({ day: row.day, count: this.codec.count(row.count) }));
  }

  private matching(scope: TenantScope, filters: IdentityFilters) {
    let query = scope.selectFrom('identities');
    if (filters.email !== undefined) query = query.where('email_normalized', '=', normalizeEmail(filters.email));
    if (filters.visitorId !== undefined) query = query.where('visitor_id', '=', filters.visitorId);
    if (filters.isFavorite !== undefined) query = query.where('is_favorite', '=', this.codec.bool(filters.isFavorite));
    if (filters.createdAfter !== undefined) query = query.where('created_at', '>', filters.createdAfter);
    if (filters.createdBefore !== undefined) query = query.where('created_at', '<', filters.createdBefore);
    return query;
  }

  private toRow(identity: NewIdentity) {
    const { codec } = this;
    return {
      ...identity,
      email_normalized: identity.email === null ? null : normalizeEmail(identity.email),
      traits: codec.json(identity.traits),
      is_favorite: codec.bool(identity.is_favorite),
    };
  }

  private toIdentity(row: IdentityRow): Identity {
    const { codec } = this;
    return {
      id: row.id,
      workspace_id: row.workspace_id,
      visitor_id: row.visitor_id,
      email: row.email,
      name: row.name,
      traits: codec.readJson(row.traits),
      first_seen: row.first_seen,
      last_seen: row.last_seen,
      ip: row.ip,
      city: row.city,
      country: row.country,
      is_favorite: codec.readBool(row.is_favorite),
      created_at: row.created_at,
    };
  }
}
