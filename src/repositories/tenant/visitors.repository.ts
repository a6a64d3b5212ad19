/**
 * All SQL about the visitors of one workspace: one row per visitor id with
 * what ingestion keeps current (first and last seen, the identity it is
 * linked to, its latest session, its last address and place, running
 * counts), so that no event has to rescan a visitor's history. Written only
 * under the visitor's lock (ingest.service.ts).
 */
import type { Selectable } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { VisitorsTable } from '../../db/schema.js';
import type { ColumnKind } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

/** `aggregates` and `network` as JSON text (src/intelligence: aggregates.ts, visitor-network.ts). */
export type Visitor = Omit<Selectable<VisitorsTable>, 'workspace_id' | 'aggregates' | 'network'> & {
  aggregates: string | null;
  network: string | null;
};

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
};

const SELECTED = Object.keys(COLUMNS) as (keyof Visitor)[];
const CHANGING = SELECTED.filter((column) => column !== 'id' && column !== 'created_at');

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
