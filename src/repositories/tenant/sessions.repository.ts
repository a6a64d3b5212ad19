/**
 * All SQL about the sessions of one workspace (CONTRACT C5.4): a visitor's
 * runs of events, each with its landing page, referrer, utm_* parameters and
 * the source they give its conversions (C5.7). Written only under the
 * visitor's lock (ingest.service.ts).
 */
import type { Selectable } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { SessionsTable } from '../../db/schema.js';
import type { JsonObject } from '../../schemas/json.js';
import type { ColumnKind } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export type Session = Omit<Selectable<SessionsTable>, 'workspace_id' | 'utm'> & { utm: Record<string, string> };

const COLUMNS: Record<keyof Session, ColumnKind> = {
  id: 'uuid',
  visitor_id: 'uuid',
  started_at: 'timestamptz',
  last_at: 'timestamptz',
  landing_page: 'text',
  referrer: 'text',
  utm: 'jsonb',
  source: 'text',
  events: 'integer',
  page_views: 'integer',
  user_agent: 'text',
  country: 'text',
};

const SELECTED = Object.keys(COLUMNS) as (keyof Session)[];
const CHANGING = SELECTED.filter((column) => column !== 'id' && column !== 'visitor_id');

export class SessionsRepository extends TenantRepository {
  async find(id: string): Promise<Session | undefined> {
    const row = await this.scope
      .template('sessions.byId', (q) => q.selectFrom('sessions').select(SELECTED).where('id', '=', param('id')))
      .first({ id });
    return row && this.decode(row);
  }

  /** The visitor's latest session that started at or before `at`. */
  async latestStartedBy(visitorId: string, at: string): Promise<Session | undefined> {
    const row = await this.scope
      .template('sessions.latestStartedBy', (q) =>
        q
          .selectFrom('sessions')
          .select(SELECTED)
          .where('visitor_id', '=', param('visitor'))
          .where('started_at', '<=', param('at'))
          .orderBy('started_at', 'desc')
          .limit(1),
      )
      .first({ visitor: visitorId, at });
    return row && this.decode(row);
  }

  /** How many the workspace has. */
  async count(): Promise<number> {
    const row = await this.scope.selectFrom('sessions').select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
    return this.codec.count(row.total);
  }

  async insert(sessions: readonly Session[]): Promise<void> {
    await this.scope.insertColumns('sessions', COLUMNS, sessions.map((session) => this.encode(session)));
  }

  /** Writes every changing column of the session. */
  async update(session: Session): Promise<void> {
    const encoded = this.encode(session) as Record<string, unknown>;
    await this.scope
      .template('sessions.update', (q) =>
        q
          .updateTable('sessions')
          .set(Object.fromEntries(CHANGING.map((column) => [column, param(column)])))
          .where('id', '=', param('id')),
      )
      .all(Object.fromEntries(SELECTED.map((column) => [column, encoded[column]])));
  }

  private encode(session: Session) {
    return { ...session, utm: this.codec.json(session.utm as JsonObject) };
  }

  private decode(row: Omit<Selectable<SessionsTable>, 'workspace_id'>): Session {
    return {
      ...row,
      utm: this.codec.readJson(row.utm) as Record<string, string>,
      events: Number(row.events),
      page_views: Number(row.page_views),
    };
  }
}
