/**
 * All SQL about a company's engagement and activity (CONTRACT C6.9;
 * docs/intelligence.md, "Accounts"), read through the company's visitors
 * (visitors.company_id, indexed) and identities, never by scanning the
 * workspace's event log: its sessions and page views in a window, its top
 * pages, sessions per day, and its activity: the activity entries of its
 * identities and the page views of its anonymous visitors, merged newest
 * first in one statement (UNION ALL, ordered and cut by the database), in
 * the shape of an identity's activity entries.
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Schema } from '../../db/schema.js';
import type { Activity } from '../../schemas/resources.js';
import type { Page, PageResult } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { TenantRepository } from './tenant-repository.js';

export interface TopPath {
  path: string;
  views: number;
}

export interface CompanyDay {
  /** YYYY-MM-DD (UTC) */
  day: string;
  /** sessions of its visitors that started that day */
  sessions: number;
  /** the page views of those sessions */
  page_views: number;
}

/** who an anonymous visitor's page view is by */
export const ANONYMOUS_VISITOR = 'Anonymous visitor';

export class AccountActivityRepository extends TenantRepository {
  /** The ids of the company's visitors seen since `since` (a subquery). */
  private visitorsSince(scope: TenantScope, companyId: string, since: string) {
    return scope.selectFrom('visitors').select('id').where('company_id', '=', companyId).where('last_seen', '>=', since);
  }

  /** How many sessions the company's visitors started since `since`, and each day's sessions and their page views. */
  async sessionsSince(companyId: string, since: string): Promise<{ sessions: number; days: CompanyDay[] }> {
    const day = this.codec.kind === 'postgres' ? sql<string>`to_char(started_at at time zone 'UTC', 'YYYY-MM-DD')` : sql<string>`substr(started_at, 1, 10)`;
    const rows = await this.scope
      .selectFrom('sessions')
      .select((eb) => [day.as('day'), eb.fn.countAll().as('sessions'), eb.fn.sum<number>('page_views').as('page_views')])
      .where('started_at', '>=', since)
      .where('visitor_id', 'in', this.visitorsSince(this.scope, companyId, since))
      .groupBy(day)
      .orderBy(day)
      .execute();
    const days = rows.map((row) => ({ day: row.day, sessions: this.codec.count(row.sessions), page_views: this.codec.count(row.page_views) }));
    return { sessions: days.reduce((total, one) => total + one.sessions, 0), days };
  }

  /** The company's page views since `since`: how many, and the `limit` most viewed paths. */
  pageViewsSince(companyId: string, since: string, limit: number): Promise<{ total: number; top: TopPath[] }> {
    return this.scope.snapshot(async (scope) => {
      const views = scope
        .selectFrom('events')
        .where('type', '=', 'page')
        .where('occurred_at', '>=', since)
        .where('visitor_id', 'in', this.visitorsSince(scope, companyId, since));
      const counted = await views.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
      const top = await views
        .where('path', 'is not', null)
        .select((eb) => ['path', eb.fn.countAll().as('views')])
        .groupBy('path')
        .orderBy('views', 'desc')
        .orderBy('path')
        .limit(limit)
        .execute();
      return { total: this.codec.count(counted.total), top: top.map((row) => ({ path: row.path as string, views: this.codec.count(row.views) })) };
    });
  }

  /** The activity of the company's identities and its anonymous visitors' page views, newest first (C3.10), with the exact total. */
  activity(companyId: string, page: Page): Promise<PageResult<Activity>> {
    return this.scope.snapshot(async (scope) => {
      const identities = scope.selectFrom('identities').select('id').where('company_id', '=', companyId);
      const anonymous = scope.selectFrom('visitors').select('id').where('company_id', '=', companyId).where('identity_id', 'is', null);
      const entries = scope.selectFrom('identity_activity').where('identity_id', 'in', identities);
      const views = scope.selectFrom('events').where('type', '=', 'page').where('visitor_id', 'in', anonymous);
      const [entryCount, viewCount] = await Promise.all([
        entries.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        views.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
      ]);
      const after = page.after;
      const entryRows = (after === undefined ? entries : entries.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.at, after.id)))).select([
        'id',
        'type',
        'who',
        'what',
        'source',
        'created_at',
      ]);
      // a page view as an activity entry: "Viewed <title, else path>" (C5.6), by an anonymous visitor
      const viewed = sql<string>`'Viewed ' || coalesce(nullif(trim(${sql.ref('title')}), ''), ${sql.ref('path')}, ${sql.ref('url')}, '/')`;
      const viewRows = (after === undefined ? views : views.where((eb) => eb(eb.refTuple('occurred_at', 'id'), '<', eb.tuple(after.at, after.id)))).select([
        'id',
        sql<string>`'page_view'`.as('type'),
        sql<string>`${sql.lit(ANONYMOUS_VISITOR)}`.as('who'),
        viewed.as('what'),
        sql<string>`'web'`.as('source'),
        'occurred_at as created_at',
      ]);
      const union = (entryRows as unknown as SelectQueryBuilder<Schema, 'identity_activity', Activity>).unionAll(
        viewRows as unknown as SelectQueryBuilder<Schema, 'identity_activity', Activity>,
      );
      const items = await union.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
      return { items: items as Activity[], total: this.codec.count(entryCount.total) + this.codec.count(viewCount.total) };
    });
  }
}
