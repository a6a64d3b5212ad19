/**
 * All SQL about the visitor identities of one workspace.
 */
import { sql, type Selectable } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';
import { normalizeEmail } from '../../schemas/normalize.js';
import type { Identity } from '../../schemas/resources.js';
import type { JsonChange } from '../json-change.js';
import { afterKey, type Page, type PageResult } from '../page.js';
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

/** The identity fields a segment rule may ask about (C6.4). */
export type SegmentField = 'email' | 'name' | 'city' | 'country' | 'is_favorite';

/** What a draft count reads of each identity beyond its keyset. */
export interface SegmentColumns {
  fields: readonly SegmentField[];
  traits: boolean;
  company: boolean;
}

/** What a segment rule may ask of an identity, with its company and its keyset (the segment builder's draft count). */
export type SegmentIdentity = Pick<Identity, 'id' | 'created_at' | 'email' | 'name' | 'city' | 'country' | 'is_favorite' | 'traits'> & { company_id: string | null };

/** What new events say about when an identity was seen, and from where (C5.5). */
export interface IdentitySeen {
  /** the earliest event of a visitor of the identity */
  first: string;
  /** the latest event of the batch */
  last: string;
  /** of the latest event: taken when it is the identity's latest */
  ip: string | null;
  city: string | null;
  country: string | null;
}

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

  /** The name and email of each of these identities (a page of leads names its people: C9.3). */
  async labelsByIds(ids: readonly string[]): Promise<{ id: string; name: string | null; email: string | null }[]> {
    if (ids.length === 0) return [];
    return this.scope.selectFrom('identities').select(['id', 'name', 'email']).where('id', 'in', ids).execute();
  }

  list(filters: IdentityFilters, page: Page): Promise<PageResult<Identity>> {
    return this.scope.snapshot(async (scope) => {
      const matching = this.matching(scope, filters);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await afterKey(matching, page.after)
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

  /** The identity with this email, compared case-insensitively; the oldest when several have it. */
  async findByEmail(email: string): Promise<Identity | undefined> {
    const row = await this.scope
      .template('identities.byEmail', (q) =>
        q
          .selectFrom('identities')
          .select(COLUMNS)
          .where('email_normalized', '=', param('email'))
          .orderBy('created_at')
          .orderBy('id')
          .limit(1),
      )
      .first({ email: normalizeEmail(email) });
    return row && this.toIdentity(row);
  }

  /**
   * Widens first_seen and last_seen to take in `seen`, and takes its ip,
   * city and country when its last event is the identity's latest, in one
   * UPDATE that reads the row's current values (concurrent writers of one
   * identity each see the other's).
   */
  async recordSeen(id: string, seen: IdentitySeen): Promise<void> {
    const latest = sql<boolean>`${sql.ref('last_seen')} <= ${param('last')}`;
    const whenLatest = (column: 'ip' | 'city' | 'country') =>
      sql<string | null>`case when ${latest} then ${param(column)} else ${sql.ref(column)} end`;
    await this.scope
      .template('identities.recordSeen', (q) =>
        q
          .updateTable('identities')
          .set({
            first_seen: sql<string>`case when ${sql.ref('first_seen')} > ${param('first')} then ${param('first')} else ${sql.ref('first_seen')} end`,
            ip: whenLatest('ip'),
            city: whenLatest('city'),
            country: whenLatest('country'),
            last_seen: sql<string>`case when ${latest} then ${param('last')} else ${sql.ref('last_seen')} end`,
          })
          .where('id', '=', param('id')),
      )
      .all({ id, ...seen });
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

  /** The company linked to the identity (C6.1), or null. */
  async companyOf(id: string): Promise<string | null> {
    const row = await this.scope
      .template('identities.companyOf', (q) => q.selectFrom('identities').select('company_id').where('id', '=', param('id')))
      .first({ id });
    return row?.company_id ?? null;
  }

  /** The email and country of a company's people (its identities), newest first, at most `limit` (C6.9: its best fit). */
  async peopleOfCompany(companyId: string, limit: number): Promise<{ email: string | null; country: string | null }[]> {
    return this.scope
      .selectFrom('identities')
      .select(['email', 'country'])
      .where('company_id', '=', companyId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Links the identity to a company (C6.1). */
  async setCompany(id: string, companyId: string): Promise<void> {
    await this.scope
      .template('identities.setCompany', (q) => q.updateTable('identities').set({ company_id: param('company') }).where('id', '=', param('id')))
      .all({ id, company: companyId });
  }

  /** The identities linked to a company, newest first (C3.10), with the exact total. */
  listByCompany(companyId: string, page: Page): Promise<PageResult<Identity>> {
    return this.scope.snapshot(async (scope) => {
      const matching = scope.selectFrom('identities').where('company_id', '=', companyId);
      const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const rows = await afterKey(matching, page.after)
        .select(COLUMNS)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { items: rows.map((row) => this.toIdentity(row)), total: this.codec.count(counted.total) };
    });
  }

  /** One page of identities in id order after `after`, with what intelligence needs of them (recompute). */
  async pageAfter(after: string, limit: number): Promise<(Identity & { company_id: string | null })[]> {
    const rows = await this.scope
      .selectFrom('identities')
      .select([...COLUMNS, 'company_id'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...this.toIdentity(row), company_id: row.company_id }));
  }

  /**
   * One page of identities with their company, newest first after a
   * (created_at, id) key (the draft count of a segment rule, C9.6); keyset on
   * the index lists use, so each page costs the same however deep.
   */
  /**
   * A page of identities newest first, after the keyset `after`, with only
   * what a segment rule asks of them (C9.6's draft count walks up to 20,000
   * of them): the fields named in `wanted.fields`, the traits (parsed) only
   * when `wanted.traits`, the company id only when `wanted.company`. What is
   * not read is null (false, `{}`): the rule never looks at it.
   */
  async newestForSegments(after: { at: string; id: string } | undefined, limit: number, wanted: SegmentColumns): Promise<SegmentIdentity[]> {
    const columns = [...wanted.fields, ...(wanted.traits ? (['traits'] as const) : []), ...(wanted.company ? (['company_id'] as const) : [])];
    const query = this.scope.selectFrom('identities').select(['id', 'created_at', ...columns]);
    const rows = (await (after === undefined ? query : query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.at, after.id))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()) as Partial<Selectable<Schema['identities']>>[];
    const { codec } = this;
    return rows.map((row) => ({
      id: row.id!,
      created_at: row.created_at!,
      email: row.email ?? null,
      name: row.name ?? null,
      city: row.city ?? null,
      country: row.country ?? null,
      is_favorite: row.is_favorite === undefined ? false : codec.readBool(row.is_favorite),
      traits: row.traits === undefined ? {} : codec.readJson(row.traits),
      company_id: row.company_id ?? null,
    }));
  }

  /** The traits and places of the newest identities (suggestions in the segment builder, C9.6). */
  async newestDetails(limit: number): Promise<{ traits: Record<string, unknown>; city: string | null; country: string | null }[]> {
    const rows = await this.scope
      .selectFrom('identities')
      .select(['traits', 'city', 'country'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ traits: this.codec.readJson(row.traits), city: row.city, country: row.country }));
  }

  /** The identity with its company, by id (segment evaluation). */
  async findWithCompany(id: string): Promise<(Identity & { company_id: string | null }) | undefined> {
    const row = await this.scope.selectFrom('identities').select([...COLUMNS, 'company_id']).where('id', '=', id).executeTakeFirst();
    return row && { ...this.toIdentity(row), company_id: row.company_id };
  }

  /** The identity whose visitor_id is this one (an identity without tracked visitors), oldest first. */
  async firstByVisitor(visitorId: string): Promise<Identity | undefined> {
    const row = await this.scope
      .selectFrom('identities')
      .select(COLUMNS)
      .where('visitor_id', '=', visitorId)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
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

  matching(scope: TenantScope, filters: IdentityFilters) {
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

  /** An identity as the API shows it, from a row of the table. */
  toIdentity(row: IdentityRow): Identity {
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

/** The columns of an identity row, for other readers of the table (search, export). */
export { COLUMNS as IDENTITY_COLUMNS };
