/**
 * lead_counts: how many leads a workspace has per UTC day and per bucket
 * (every lead, and each source), so that list totals need not scan leads.
 * Written in the same transaction as the leads they count.
 */
import type { Kysely } from 'kysely';
import { param } from '../db/query-templates.js';
import type { Schema } from '../db/schema.js';
import type { NewLead } from './leads.repository.js';

/** the bucket of every lead; a source's bucket is '=' followed by the source */
export const ALL_LEADS = '*';
const DAY_MS = 86_400_000;
const ROWS_PER_STATEMENT = 500;

export const dayOf = (instant: string) => instant.slice(0, 10);
export const startOfDay = (instant: string) => `${dayOf(instant)}T00:00:00.000Z`;
export const nextDay = (instant: string) => new Date(Date.parse(startOfDay(instant)) + DAY_MS).toISOString();
export const bucketOf = (source: string | undefined) => (source === undefined ? ALL_LEADS : `=${source}`);

export interface CountRow {
  workspace_id: string;
  bucket: string;
  day: string;
  count: number;
}

/** Counts per (bucket, day), gathered before they are written. */
export class PendingCounts {
  readonly #counts = new Map<string, { bucket: string; day: string; count: number }>();

  add(leads: readonly Pick<NewLead, 'source' | 'created_at'>[]): this {
    for (const lead of leads) {
      const day = dayOf(lead.created_at);
      this.#bump(ALL_LEADS, day);
      if (lead.source !== null) this.#bump(`=${lead.source}`, day);
    }
    return this;
  }

  rows(workspaceId: string): CountRow[] {
    return [...this.#counts.values()].map((entry) => ({ workspace_id: workspaceId, ...entry }));
  }

  #bump(bucket: string, day: string): void {
    const key = `${bucket}\u0000${day}`;
    const entry = this.#counts.get(key);
    if (entry === undefined) this.#counts.set(key, { bucket, day, count: 1 });
    else entry.count += 1;
  }
}

/** An upsert adding `rows` to the counts; with param() placeholders it is a template. */
export function addCounts(db: Kysely<Schema>, rows: readonly CountRow[]) {
  return db
    .insertInto('lead_counts')
    .values([...rows])
    .onConflict((conflict) =>
      conflict
        .columns(['workspace_id', 'bucket', 'day'])
        .doUpdateSet((eb) => ({ count: eb('lead_counts.count', '+', eb.ref('excluded.count')) })),
    );
}

/** Placeholder rows for a template that adds `n` count rows, and the values to run it with. */
export function countTemplateRows(n: number): CountRow[] {
  return Array.from({ length: n }, (_, index) => ({
    workspace_id: param('ws'),
    bucket: param(`bucket${index}`),
    day: param(`day${index}`),
    count: param<number>(`count${index}`),
  }));
}

export function countTemplateValues(rows: readonly CountRow[]): Record<string, unknown> {
  const values: Record<string, unknown> = { ws: rows[0]?.workspace_id };
  rows.forEach((row, index) => {
    values[`bucket${index}`] = row.bucket;
    values[`day${index}`] = row.day;
    values[`count${index}`] = row.count;
  });
  return values;
}

export { ROWS_PER_STATEMENT };
