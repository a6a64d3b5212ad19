/**
 * page_counts: how many page views a workspace received per UTC day and page
 * (host and path), so that the overview's top pages read these counters
 * rather than the event log. Written by the ingest derivation in the
 * transaction that appends the page views it counts, with a row per week
 * beside the day's (migration 0021, week-buckets.ts).
 */
import { param } from '../../db/query-templates.js';
import { TenantRepository } from './tenant-repository.js';
import { keysOf, weekOf } from './week-buckets.js';

const ROWS_PER_STATEMENT = 500;

export interface PageCountRow {
  day: string;
  host: string;
  path: string;
  views: number;
}

export interface TopPage {
  host: string;
  path: string;
  views: number;
}

/** Page views per (day, host, path), gathered before they are written; each day's views go to its week's row too. */
export class PendingPageViews {
  readonly #counts = new Map<string, PageCountRow>();

  /** Counts a view on the day's row and on its week's row (week-buckets.ts). */
  add(day: string, host: string, path: string): this {
    this.#add(day, host, path);
    this.#add(weekOf(day), host, path);
    return this;
  }

  #add(day: string, host: string, path: string): void {
    const key = `${day}\u0000${host}\u0000${path}`;
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { day, host, path, views: 1 });
    else entry.views += 1;
  }

  /**
   * The rows in key order: concurrent transactions that bump the same pages
   * lock their rows in one order (PostgreSQL), so they wait, never deadlock.
   */
  rows(): PageCountRow[] {
    return [...this.#counts.values()].sort((a, b) => compare(a.day, b.day) || compare(a.host, b.host) || compare(a.path, b.path));
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export class PageCountsRepository extends TenantRepository {
  /** Adds the gathered page views; call it in the transaction of the events they count. */
  async add(pending: PendingPageViews): Promise<void> {
    const rows = pending.rows();
    if (rows.length === 0) return;
    if (this.codec.kind === 'sqlite') {
      // one prepared single-row statement per row: on SQLite cheaper than building a statement of many rows each batch
      const statement = this.scope.template('pageCounts.add:1', (q) =>
        this.upsert(q, [{ day: param('day'), host: param('host'), path: param('path'), views: param<number>('views') }]),
      );
      for (const row of rows) await statement.all({ ...row });
      return;
    }
    if (rows.length === 2) {
      // one page's views of one day: its day row and its week row
      const [day, week] = rows as [PageCountRow, PageCountRow];
      await this.scope
        .template('pageCounts.add:2', (q) =>
          this.upsert(q, [
            { day: param('day'), host: param('host'), path: param('path'), views: param<number>('views') },
            { day: param('week'), host: param('weekHost'), path: param('weekPath'), views: param<number>('weekViews') },
          ]),
        )
        .all({ ...day, week: week.day, weekHost: week.host, weekPath: week.path, weekViews: week.views });
      return;
    }
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await this.upsert(this.scope, rows.slice(start, start + ROWS_PER_STATEMENT)).execute();
    }
  }

  /** The most viewed pages from `fromDay` to `toDay` (inclusive), of one site (host) or all, most views first: whole weeks from their week rows, edge days from their day rows. */
  top(fromDay: string, toDay: string, limit: number, host?: string): Promise<TopPage[]> {
    return this.scope
      .selectFrom('page_counts')
      .select((eb) => ['host', 'path', eb.fn.sum<number>('views').as('views')])
      .where('day', 'in', keysOf(fromDay, toDay))
      .$if(host !== undefined, (q) => q.where('host', '=', host as string))
      .groupBy(['host', 'path'])
      .orderBy('views', 'desc')
      .orderBy('path')
      .orderBy('host')
      .limit(limit)
      .execute()
      .then((rows) => rows.map((row) => ({ host: row.host, path: row.path, views: this.codec.count(row.views) })));
  }

  private upsert(scope: typeof this.scope, rows: readonly PageCountRow[]) {
    return scope
      .insertInto('page_counts', rows)
      .onConflict((conflict) =>
        conflict.columns(['workspace_id', 'day', 'host', 'path']).doUpdateSet((eb) => ({ views: eb('page_counts.views', '+', eb.ref('excluded.views')) })),
      );
  }
}
