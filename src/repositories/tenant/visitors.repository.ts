/**
 * All SQL about the visitors of one workspace: one row per visitor id with
 * what ingestion keeps current (first and last seen, the identity it is
 * linked to, its latest session, its last address and place, running
 * counts), so that no event has to rescan a visitor's history. Written only
 * under the visitor's lock (ingest.service.ts).
 */
import { sql, type Selectable } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { VisitorsTable } from '../../db/schema.js';
import type { ColumnKind } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

/** `aggregates` and `network` as JSON text (src/intelligence: aggregates.ts, visitor-network.ts). */
export type Visitor = Omit<Selectable<VisitorsTable>, 'workspace_id' | 'aggregates' | 'network'> & {
  aggregates: string | null;
  network: string | null;
};

/** What a company's account score reads of each of its visitors (C6.9). */
export interface CompanyVisitor {
  id: string;
  identity_id: string | null;
  last_seen: string;
  last_country: string | null;
  /** running aggregates, JSON text */
  aggregates: string | null;
}

/** An anonymous visitor of a company, as its page lists them (C9.4). */
export interface AnonymousVisitor {
  visitor_id: string;
  first_seen: string;
  last_seen: string;
  city: string | null;
  country: string | null;
  page_views: number;
  sessions: number;
}

const COLUMNS: Record<keyof Visitor, ColumnKind> = {
  id: 'uuid',
  identity_id: 'uuid',
  identified_at: 'timestamptz',
  first_seen: 'timestamptz',
  last_seen: 'timestamptz',
  session_id: 'uuid',
  session_started_at: 'timestamptz',
  session_last_at: 'timestamptz',
  last_url: 'text',
  last_ip: 'text',
  last_city: 'text',
  last_country: 'text',
  events: 'integer',
  page_views: 'integer',
  sessions: 'integer',
  created_at: 'timestamptz',
  aggregates: 'jsonb',
  network: 'jsonb',
  company_id: 'uuid',
};

const SELECTED = Object.keys(COLUMNS) as (keyof Visitor)[];
/** company_id is written by its own statements (setCompany…): a visitor's update never carries a stale one over a change */
const CHANGING = SELECTED.filter((column) => column !== 'id' && column !== 'created_at' && column !== 'company_id');

export class VisitorsRepository extends TenantRepository {
  /**
   * Until the transaction ends, no other transaction derives events of these
   * visitors or identifies anyone with these (normalized) emails.
   */
  async lock(visitorIds: readonly string[], emails: readonly string[]): Promise<void> {
    await this.scope.lock([...visitorIds.map((id) => `visitor:${id}`), ...emails.map((email) => `email:${email}`)]);
  }

  async find(id: string): Promise<Visitor | undefined> {
    const row = await this.scope
      .template('visitors.byId', (q) => q.selectFrom('visitors').select(SELECTED).where('id', '=', param('id')))
      .first({ id });
    return row && this.toVisitor(row);
  }

  /** The visitors linked to an identity. */
  async forIdentity(identityId: string): Promise<Visitor[]> {
    const rows = await this.scope
      .template('visitors.forIdentity', (q) => q.selectFrom('visitors').select(SELECTED).where('identity_id', '=', param('identity')))
      .all({ identity: identityId });
    return rows.map((row) => this.toVisitor(row));
  }

  /** The visitors linked to any of these identities (a page of identities at once: the draft count of a segment rule). */
  async forIdentities(identityIds: readonly string[]): Promise<Visitor[]> {
    if (identityIds.length === 0) return [];
    const rows = await this.scope.selectFrom('visitors').select(SELECTED).where('identity_id', 'in', identityIds).execute();
    return rows.map((row) => this.toVisitor(row));
  }

  /** One page of the workspace's visitor ids, in id order, after `after` (recompute). */
  async idsAfter(after: string, limit: number): Promise<string[]> {
    const rows = await this.scope.selectFrom('visitors').select('id').where('id', '>', after).orderBy('id').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /** The ids of the visitors linked to any identity (a rule changed: they are all due). */
  async identifiedIds(after: string, limit: number): Promise<string[]> {
    const rows = await this.scope
      .selectFrom('visitors')
      .select('id')
      .where('identity_id', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Sets the company a visitor's visits name (C6.9). */
  async setCompany(id: string, companyId: string | null): Promise<void> {
    await this.scope
      .template('visitors.setCompany', (q) => q.updateTable('visitors').set({ company_id: param('company') }).where('id', '=', param('id')))
      .all({ id, company: companyId });
  }

  /** Sets the company of every visitor of an identity (its email named one: C6.1, C6.9). */
  async setCompanyOfIdentity(identityId: string, companyId: string): Promise<void> {
    await this.scope
      .template('visitors.setCompanyOfIdentity', (q) =>
        q.updateTable('visitors').set({ company_id: param('company') }).where('identity_id', '=', param('identity')),
      )
      .all({ identity: identityId, company: companyId });
  }

  /**
   * The companies the visits of these visitors name, each once. One
   * compiled statement whatever the number of ids (the intelligence worker
   * asks it for every claim of up to 200 visitors): the ids go as one value,
   * JSON on SQLite, an array on PostgreSQL.
   */
  async companiesOf(visitorIds: readonly string[]): Promise<string[]> {
    if (visitorIds.length === 0) return [];
    const sqlite = this.codec.kind === 'sqlite';
    const rows = await this.scope
      .template('visitors.companiesOf', (q) =>
        q
          .selectFrom('visitors')
          .select('company_id')
          .distinct()
          .where('id', 'in', sqlite ? sql<string>`(select value from json_each(${param('ids')}))` : sql<string>`(select unnest(${param('ids')}::uuid[]))`)
          .where('company_id', 'is not', null),
      )
      .all({ ids: sqlite ? JSON.stringify(visitorIds) : visitorIds });
    return rows.map((row) => row.company_id as string);
  }

  /** A company's visitors seen since `since` (C6.9): how many, and how many of them are identities. */
  async countForCompany(companyId: string, since: string): Promise<{ visitors: number; identities: number }> {
    const row = await this.scope
      .selectFrom('visitors')
      .select((eb) => [eb.fn.countAll().as('visitors'), eb.fn.count('identity_id').distinct().as('identities')])
      .where('company_id', '=', companyId)
      .where('last_seen', '>=', since)
      .executeTakeFirstOrThrow();
    return { visitors: this.codec.count(row.visitors), identities: this.codec.count(row.identities) };
  }

  /** The latest visit of any of a company's visitors; null when it has none. */
  async lastSeenOfCompany(companyId: string): Promise<string | null> {
    const row = await this.scope
      .selectFrom('visitors')
      .select((eb) => eb.fn.max('last_seen').as('last_seen'))
      .where('company_id', '=', companyId)
      .executeTakeFirst();
    return (row?.last_seen as string | null | undefined) ?? null;
  }

  /** A company's visitors seen since `since`, with what its account score reads (C6.9), at most `limit`, latest first. */
  async forCompany(companyId: string, since: string, limit: number): Promise<CompanyVisitor[]> {
    const rows = await this.scope
      .selectFrom('visitors')
      .select(['id', 'identity_id', 'last_seen', 'last_country', 'aggregates'])
      .where('company_id', '=', companyId)
      .where('last_seen', '>=', since)
      .orderBy('last_seen', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, aggregates: row.aggregates === null ? null : typeof row.aggregates === 'string' ? row.aggregates : JSON.stringify(row.aggregates) }));
  }

  /**
   * A company's anonymous visitors (no identity) seen since `since` (C9.4):
   * how many, and the `limit` seen last, through visitors_company_idx.
   */
  async anonymousOfCompany(companyId: string, since: string, limit: number): Promise<{ count: number; recent: AnonymousVisitor[] }> {
    const matching = this.scope
      .selectFrom('visitors')
      .where('company_id', '=', companyId)
      .where('last_seen', '>=', since)
      .where('identity_id', 'is', null);
    const counted = await matching.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const rows = await matching
      .select(['id', 'first_seen', 'last_seen', 'last_city', 'last_country', 'page_views', 'sessions'])
      .orderBy('last_seen', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return {
      count: this.codec.count(counted.n),
      recent: rows.map((row) => ({
        visitor_id: row.id,
        first_seen: row.first_seen,
        last_seen: row.last_seen,
        city: row.last_city,
        country: row.last_country,
        page_views: Number(row.page_views),
        sessions: Number(row.sessions),
      })),
    };
  }

  /** Writes the running aggregates (recompute rebuilds them from the log). */
  async setAggregates(id: string, aggregates: string, network: string | null): Promise<void> {
    await this.scope.updateTable('visitors').set({ aggregates, network }).where('id', '=', id).execute();
  }

  private toVisitor(row: Record<keyof Visitor, unknown>): Visitor {
    const json = (value: unknown) => (value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value));
    return {
      ...(row as Visitor),
      events: Number(row.events),
      page_views: Number(row.page_views),
      sessions: Number(row.sessions),
      aggregates: json(row.aggregates),
      network: json(row.network),
    };
  }

  /** Whether the workspace has any visitor, that is, has received an event (C9.8's first run). */
  async any(): Promise<boolean> {
    const row = await this.scope.selectFrom('visitors').select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** How many the workspace has. */
  async count(): Promise<number> {
    const row = await this.scope.selectFrom('visitors').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    return this.codec.count(row.total);
  }

  async insert(visitors: readonly Visitor[]): Promise<void> {
    await this.scope.insertColumns('visitors', COLUMNS, visitors);
  }

  /** Writes every changing column of the visitor. */
  async update(visitor: Visitor): Promise<void> {
    const values: Record<string, unknown> = {};
    for (const column of SELECTED) values[column] = visitor[column];
    await this.scope
      .template('visitors.update', (q) =>
        q
          .updateTable('visitors')
          .set(Object.fromEntries(CHANGING.map((column) => [column, param(column)])))
          .where('id', '=', param('id')),
      )
      .all(values);
  }
}
