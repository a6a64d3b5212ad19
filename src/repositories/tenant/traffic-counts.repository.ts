/**
 * traffic_counts and visitor_days (migration 0016): the overview's traffic
 * figures and breakdowns per UTC day and site, so that the overview reads a
 * few rows per day, site and value however many events the log holds.
 * Written by the ingest derivation in the transaction that appends the
 * events they count: first the batch's visitor-day markers (those that were
 * new are the visitors to count), then one upsert of the gathered counters,
 * each day's with its week's (migration 0021, week-buckets.ts).
 */
import { param } from '../../db/query-templates.js';
import { TenantRepository } from './tenant-repository.js';
import { keysOf, weekOf, WEEK_PREFIX } from './week-buckets.js';

/**
 * Rows per statement: each count of rows up to this is one compiled
 * template (query-templates.ts), so a batch's markers and counters are
 * written without building a query (issue 24's profile: building them cost
 * more than running them).
 */
const ROWS_PER_TEMPLATE = 64;

/** the counters of one row, as deltas to add */
export interface TrafficDelta {
  visitors: number;
  all_sites_visitors: number;
  sessions: number;
  page_views: number;
  bounces: number;
  duration_ms: number;
}

export interface TrafficRow extends TrafficDelta {
  dimension: string;
  day: string;
  host: string;
  value: string;
}

/** A visitor's per-day first-seen marker on a site (host '' for any site). */
export interface VisitorDay {
  day: string;
  host: string;
  visitor_id: string;
}

/** One day's totals of a site, or of every site summed. */
export interface TrafficDay extends TrafficDelta {
  day: string;
}

export interface TrafficValue {
  value: string;
  sessions: number;
  bounces: number;
  duration_ms: number;
}

const FIELDS = ['visitors', 'all_sites_visitors', 'sessions', 'page_views', 'bounces', 'duration_ms'] as const;
const KEYS = ['dimension', 'day', 'host', 'value'] as const;

/** each column's placeholder names by row index (`day0`, `day1`, …), made once rather than for every batch */
const names = new Map<string, string[]>();
function namesOf(column: string): string[] {
  let made = names.get(column);
  if (made === undefined) {
    made = Array.from({ length: ROWS_PER_TEMPLATE }, (_, index) => `${column}${index}`);
    names.set(column, made);
  }
  return made;
}

/** The values of a template of `rows.length` rows: each column's name suffixed with its row's index. */
function rowValues<Row extends object>(rows: readonly Row[], columns: readonly (keyof Row & string)[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of columns) {
    const named = namesOf(column);
    for (let index = 0; index < rows.length; index += 1) values[named[index] as string] = (rows[index] as Row)[column];
  }
  return values;
}
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Counter deltas per (dimension, day, host, value), gathered before they are written; each day's deltas go to its week's row too. */
export class PendingTraffic {
  readonly #rows = new Map<string, TrafficRow>();

  /** Adds to the row of the day and to the row of its week (week-buckets.ts). */
  add(dimension: string, day: string, host: string, value: string, delta: Partial<TrafficDelta>): this {
    this.#add(dimension, day, host, value, delta);
    this.#add(dimension, weekOf(day), host, value, delta);
    return this;
  }

  #add(dimension: string, day: string, host: string, value: string, delta: Partial<TrafficDelta>): void {
    const key = `${dimension}\u0000${day}\u0000${host}\u0000${value}`;
    let row = this.#rows.get(key);
    if (row === undefined) {
      row = { dimension, day, host, value, visitors: 0, all_sites_visitors: 0, sessions: 0, page_views: 0, bounces: 0, duration_ms: 0 };
      this.#rows.set(key, row);
    }
    for (const field of FIELDS) row[field] += delta[field] ?? 0;
  }

  /**
   * The rows that change something, in key order: concurrent transactions
   * bump their rows in one order (PostgreSQL), so they wait, never deadlock.
   */
  rows(): TrafficRow[] {
    return [...this.#rows.values()]
      .filter((row) => FIELDS.some((field) => row[field] !== 0))
      .sort((a, b) => compare(a.dimension, b.dimension) || compare(a.day, b.day) || compare(a.host, b.host) || compare(a.value, b.value));
  }
}

export class TrafficCountsRepository extends TenantRepository {
  /** Records the markers; returns those that were new (the visitor's first on that site and day). */
  async markVisitorDays(markers: readonly VisitorDay[]): Promise<VisitorDay[]> {
    const sorted = [...markers].sort((a, b) => compare(a.day, b.day) || compare(a.host, b.host) || compare(a.visitor_id, b.visitor_id));
    const added: VisitorDay[] = [];
    for (let start = 0; start < sorted.length; start += ROWS_PER_TEMPLATE) {
      const chunk = sorted.slice(start, start + ROWS_PER_TEMPLATE);
      const rows = await this.scope
        .template(`visitorDays.mark:${chunk.length}`, (q) =>
          q
            .insertInto(
              'visitor_days',
              chunk.map((_, row) => ({ day: param(`day${row}`), host: param(`host${row}`), visitor_id: param(`visitor_id${row}`) })),
            )
            .onConflict((conflict) => conflict.columns(['workspace_id', 'day', 'host', 'visitor_id']).doNothing())
            .returning(['day', 'host', 'visitor_id']),
        )
        .all(rowValues(chunk, ['day', 'host', 'visitor_id']));
      added.push(...rows.map((row) => ({ day: row.day, host: row.host, visitor_id: String(row.visitor_id) })));
    }
    return added;
  }

  /** Adds the gathered deltas; call it in the transaction of the events they count. */
  async add(pending: PendingTraffic): Promise<void> {
    const rows = pending.rows();
    for (let start = 0; start < rows.length; start += ROWS_PER_TEMPLATE) {
      const chunk = rows.slice(start, start + ROWS_PER_TEMPLATE);
      await this.scope
        .template(`trafficCounts.add:${chunk.length}`, (q) =>
          q
            .insertInto(
              'traffic_counts',
              chunk.map((_, row) => ({
                ...(Object.fromEntries(KEYS.map((key) => [key, param(`${key}${row}`)])) as Record<(typeof KEYS)[number], string>),
                ...(Object.fromEntries(FIELDS.map((field) => [field, param<number>(`${field}${row}`)])) as unknown as TrafficDelta),
              })),
            )
            .onConflict((conflict) =>
              conflict
                .columns(['workspace_id', 'dimension', 'day', 'host', 'value'])
                .doUpdateSet((eb) => Object.fromEntries(FIELDS.map((field) => [field, eb(`traffic_counts.${field}`, '+', eb.ref(`excluded.${field}`))]))),
            ),
        )
        .all(rowValues(chunk, [...KEYS, ...FIELDS]));
    }
  }

  /** Each day's totals from `fromDay` to `toDay` (inclusive) of one site, or of every site summed; days without traffic are absent. */
  async days(fromDay: string, toDay: string, host: string | undefined): Promise<TrafficDay[]> {
    const rows = await this.scope
      .selectFrom('traffic_counts')
      .select((eb) => ['day', ...FIELDS.map((field) => eb.fn.sum<number>(field).as(field))])
      .where('dimension', '=', '')
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .$if(host !== undefined, (q) => q.where('host', '=', host as string))
      .groupBy('day')
      .orderBy('day')
      .execute();
    return rows.map((row) => {
      const counts = row as unknown as Record<(typeof FIELDS)[number], unknown>;
      return { day: row.day, ...(Object.fromEntries(FIELDS.map((field) => [field, this.codec.count(counts[field] as number)])) as unknown as TrafficDelta) };
    });
  }

  /**
   * The values of a dimension with the most sessions from `fromDay` to `toDay`, most first; `''` (none, unknown) included unless `withoutNone`.
   * Reads the range's whole weeks from their week rows, its edge days from their day rows.
   */
  async top(dimension: string, fromDay: string, toDay: string, host: string | undefined, limit: number, withoutNone = false): Promise<TrafficValue[]> {
    const rows = await this.scope
      .selectFrom('traffic_counts')
      .select((eb) => ['value', eb.fn.sum<number>('sessions').as('sessions'), eb.fn.sum<number>('bounces').as('bounces'), eb.fn.sum<number>('duration_ms').as('duration_ms')])
      .where('dimension', '=', dimension)
      .where('day', 'in', keysOf(fromDay, toDay))
      .$if(host !== undefined, (q) => q.where('host', '=', host as string))
      .$if(withoutNone, (q) => q.where('value', '<>', ''))
      .groupBy('value')
      .having((eb) => eb.fn.sum('sessions'), '>', 0)
      .orderBy('sessions', 'desc')
      .orderBy('value')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      value: row.value,
      sessions: this.codec.count(row.sessions),
      bounces: this.codec.count(row.bounces),
      duration_ms: this.codec.count(row.duration_ms),
    }));
  }

  /** The sites (hosts) that have any page view, most viewed first. */
  async sites(limit: number): Promise<string[]> {
    const rows = await this.scope
      .selectFrom('traffic_counts')
      .select((eb) => ['host', eb.fn.sum<number>('page_views').as('views')])
      .where('dimension', '=', '')
      // the week rows: the same sums, in a seventh of the rows
      .where('day', '>=', WEEK_PREFIX)
      .groupBy('host')
      .having((eb) => eb.fn.sum('page_views'), '>', 0)
      .orderBy('views', 'desc')
      .orderBy('host')
      .limit(limit)
      .execute();
    return rows.map((row) => row.host);
  }

  /** Forgets markers of days before `beforeDay` (past the ingest's window, no event can reach them). */
  async pruneVisitorDays(beforeDay: string): Promise<number> {
    const result = await this.scope.deleteFrom('visitor_days').where('day', '<', beforeDay).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
