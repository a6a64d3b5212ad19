/**
 * lead_counts: how many leads a workspace has per UTC day and per bucket
 * (every lead, and each source), so that list totals need not scan leads
 * (lead-totals.ts). Written in the same transaction as the leads they count;
 * source and created_at never change after insert, so updates leave them be.
 */
import { param } from '../../db/query-templates.js';
import { TenantRepository } from './tenant-repository.js';

/** the bucket of every lead; a source's bucket is '=' followed by the source */
export const ALL_LEADS = '*';
const DAY_MS = 86_400_000;
const ROWS_PER_STATEMENT = 500;
/** count rows a single write usually adds (one lead: its day in two buckets) */
const SMALL_WRITE = 2;
/** days read at a time when looking for the day of a deep offset */
const DAYS_PER_CHUNK = 100;

export const dayOf = (instant: string) => instant.slice(0, 10);
export const startOfDay = (instant: string) => `${dayOf(instant)}T00:00:00.000Z`;
export const nextDay = (instant: string) => new Date(Date.parse(startOfDay(instant)) + DAY_MS).toISOString();
export const bucketOf = (source: string | undefined) => (source === undefined ? ALL_LEADS : `=${source}`);

export interface CountRow {
  bucket: string;
  day: string;
  count: number;
}

interface PendingBucket {
  bucket: string;
  days: Map<string, CountRow>;
}

/** Counts per (bucket, day), gathered before they are written. */
export class PendingCounts {
  // keyed in two steps (source, then day), so that counting a lead builds no
  // key text: an import counts a million of them
  readonly #all: PendingBucket = { bucket: ALL_LEADS, days: new Map() };
  readonly #sources = new Map<string, PendingBucket>();

  add(leads: readonly { source: string | null; created_at: string }[]): this {
    for (const lead of leads) {
      const day = dayOf(lead.created_at);
      bump(this.#all, day);
      if (lead.source !== null) {
        let bucket = this.#sources.get(lead.source);
        if (bucket === undefined) {
          bucket = { bucket: `=${lead.source}`, days: new Map() };
          this.#sources.set(lead.source, bucket);
        }
        bump(bucket, day);
      }
    }
    return this;
  }

  rows(): CountRow[] {
    const rows = [...this.#all.days.values()];
    for (const { days } of this.#sources.values()) rows.push(...days.values());
    return rows;
  }
}

function bump({ bucket, days }: PendingBucket, day: string): void {
  const entry = days.get(day);
  if (entry === undefined) days.set(day, { bucket, day, count: 1 });
  else entry.count += 1;
}

/** Which days of a bucket to sum: after and before are day texts, inclusive or not. */
export interface DayRange {
  after?: { day: string; inclusive: boolean };
  before?: { day: string; inclusive: boolean };
}

export class LeadCountsRepository extends TenantRepository {
  /** Adds the gathered counts; call it in the transaction of the inserts they count. */
  async add(pending: PendingCounts): Promise<void> {
    const rows = pending.rows();
    if (rows.length === 0) return;
    if (rows.length <= SMALL_WRITE) {
      const values: Record<string, unknown> = {};
      rows.forEach((row, index) => {
        values[`bucket${index}`] = row.bucket;
        values[`day${index}`] = row.day;
        values[`count${index}`] = row.count;
      });
      await this.scope
        .template(`leadCounts.add:${rows.length}`, (q) =>
          this.upsert(
            q,
            rows.map((_, index) => ({
              bucket: param(`bucket${index}`),
              day: param(`day${index}`),
              count: param<number>(`count${index}`),
            })),
          ),
        )
        .all(values);
      return;
    }
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      await this.upsert(this.scope, rows.slice(start, start + ROWS_PER_STATEMENT)).execute();
    }
  }

  /** Takes leads that were deleted out of the counts; call it in the transaction of the deletion. */
  async subtract(pending: PendingCounts): Promise<void> {
    for (const row of pending.rows()) {
      await this.scope
        .updateTable('lead_counts')
        .set((eb) => ({ count: eb('count', '-', row.count) }))
        .where('bucket', '=', row.bucket)
        .where('day', '=', row.day)
        .execute();
    }
  }

  /** The sum of a bucket's counts over a range of days. */
  async sum(bucket: string, range: DayRange): Promise<number> {
    const { after, before } = range;
    const shape = [
      after === undefined ? '' : after.inclusive ? 'A' : 'a',
      before === undefined ? '' : before.inclusive ? 'B' : 'b',
    ].join('');
    const row = await this.scope
      .template(`leadCounts.sum:${shape}`, (q) => {
        let query = q
          .selectFrom('lead_counts')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('count'), eb.lit(0)).as('total'))
          .where('bucket', '=', param('bucket'));
        if (after !== undefined) query = query.where('day', after.inclusive ? '>=' : '>', param('afterDay'));
        if (before !== undefined) query = query.where('day', before.inclusive ? '<=' : '<', param('beforeDay'));
        return query;
      })
      .first({ bucket, afterDay: after?.day, beforeDay: before?.day });
    return this.codec.count(row?.total ?? 0);
  }

  /**
   * The day that holds the row at `offset` of a bucket's rows listed newest
   * first, and how many rows lie on the days after it; undefined past the
   * end. Reads the days newest first, a chunk at a time, so a deep page
   * costs a few dozen counters instead of a walk over every row it skips.
   */
  async dayAt(bucket: string, offset: number): Promise<{ day: string; rowsAfter: number } | undefined> {
    let rowsAfter = 0;
    let below: string | undefined;
    for (;;) {
      const days = await this.scope
        .template(`leadCounts.daysNewestFirst:${below === undefined ? 'first' : 'below'}`, (q) => {
          let query = q.selectFrom('lead_counts').select(['day', 'count']).where('bucket', '=', param('bucket'));
          if (below !== undefined) query = query.where('day', '<', param('below'));
          return query.orderBy('day', 'desc').limit(DAYS_PER_CHUNK);
        })
        .all({ bucket, below });
      for (const row of days) {
        const count = this.codec.count(row.count);
        if (rowsAfter + count > offset) return { day: row.day, rowsAfter };
        rowsAfter += count;
      }
      if (days.length < DAYS_PER_CHUNK) return undefined;
      below = days[days.length - 1]?.day;
    }
  }

  /** Every bucket's count on each day from `fromDay` to `toDay` (inclusive), for charts; days without leads are absent. */
  range(fromDay: string, toDay: string): Promise<CountRow[]> {
    return this.scope
      .selectFrom('lead_counts')
      .select(['bucket', 'day', 'count'])
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day')
      .orderBy('bucket')
      .execute()
      .then((rows) => rows.map((row) => ({ bucket: row.bucket, day: row.day, count: this.codec.count(row.count) })));
  }

  private upsert(scope: typeof this.scope, rows: readonly CountRow[]) {
    return scope
      .insertInto('lead_counts', rows)
      .onConflict((conflict) =>
        conflict
          .columns(['workspace_id', 'bucket', 'day'])
          .doUpdateSet((eb) => ({ count: eb('lead_counts.count', '+', eb.ref('excluded.count')) })),
      );
  }
}
