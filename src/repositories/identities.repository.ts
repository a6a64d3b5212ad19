/**
 * All SQL about visitor identities. Every method takes the workspace id first
 * and every query filters on it.
 */
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Schema } from '../db/schema.js';
import type { Identity } from '../schemas/resources.js';
import type { JsonChange } from './leads.repository.js';
import { TenantRepository, type Page, type PageResult } from './repository.js';

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

export function normalizeEmail(email: string): string {
  return email.toLowerCase();
}

export class IdentitiesRepository extends TenantRepository {
  protected readonly table = 'identities' as const;


  async findById(workspaceId: string, id: string): Promise<Identity | undefined> {
    const row = await this.db
      .selectFrom('identities')
      .select(COLUMNS)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && this.toIdentity(row);
  }

  list(workspaceId: string, filters: IdentityFilters, page: Page): Promise<PageResult<Identity>> {
    return this.snapshot(async (db) => {
      const matching = this.matching(db, workspaceId, filters);
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

  async insert(workspaceId: string, identity: NewIdentity): Promise<Identity> {
    await this.db.insertInto('identities').values(this.toRow(workspaceId, identity)).execute();
    return { ...identity, workspace_id: workspaceId };
  }

  /** Writes the rows (an id already taken in the workspace fails the statement). Returns how many were written. */
  insertMany(workspaceId: string, identities: readonly NewIdentity[]): Promise<number> {
    return this.insertRows(this.db, 'identities', identities.map((identity) => this.toRow(workspaceId, identity)));
  }

  async update(workspaceId: string, id: string, changes: IdentityChanges): Promise<Identity | undefined> {
    const { codec } = this;
    const traits = changes.traits;
    const set = {
      ...(changes.name === undefined ? {} : { name: changes.name }),
      ...(changes.is_favorite === undefined ? {} : { is_favorite: codec.bool(changes.is_favorite) }),
      ...(traits === undefined
        ? {}
        : { traits: traits.mode === 'replace' ? codec.json(traits.value) : codec.mergePatch('traits', codec.json(traits.patch)) }),
    };
    if (Object.keys(set).length === 0) return this.findById(workspaceId, id);
    const row = await this.db
      .updateTable('identities')
      .set(set)
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && this.toIdentity(row);
  }

  private matching(db: Kysely<Schema>, workspaceId: string, filters: IdentityFilters) {
    let query: SelectQueryBuilder<Schema, 'identities', object> = db
      .selectFrom('identities')
      .where('workspace_id', '=', workspaceId);
    if (filters.email !== undefined) query = query.where('email_normalized', '=', normalizeEmail(filters.email));
    if (filters.visitorId !== undefined) query = query.where('visitor_id', '=', filters.visitorId);
    if (filters.isFavorite !== undefined) query = query.where('is_favorite', '=', this.codec.bool(filters.isFavorite));
    if (filters.createdAfter !== undefined) query = query.where('created_at', '>', filters.createdAfter);
    if (filters.createdBefore !== undefined) query = query.where('created_at', '<', filters.createdBefore);
    return query;
  }

  private toRow(workspaceId: string, identity: NewIdentity) {
    const { codec } = this;
    return {
      ...identity,
      workspace_id: workspaceId,
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
