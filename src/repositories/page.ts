/**
 * Pages of a list, as every list endpoint reads them (CONTRACT C3.9, C3.10):
 * an offset and a limit, newest first by created_at then id, with the exact
 * total of the matching rows.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { Codec } from '../db/codec.js';
import type { Schema } from '../db/schema.js';

/** A position in a list's order (C8.3): the sort value and id of the last item seen; the page holds what comes after it. */
export interface Keyset {
  at: string;
  id: string;
}

export interface Page {
  limit: number;
  offset: number;
  /** keyset pagination: items strictly after this position (offset is then 0) */
  after?: Keyset;
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

/** Tables listed newest first by `created_at`, then `id`. */
export type CreatedTable = 'identity_activity' | 'companies' | 'visitor_lists' | 'webhooks' | 'company_rules' | 'alerts' | 'lead_notes';

/**
 * One page of `matching`, newest first (created_at, then id, descending, so
 * pages never skip or repeat: C3.10), and the exact total of `matching`.
 * Call it inside a snapshot so the two agree.
 */
export async function newestFirstPage<T extends CreatedTable, C extends readonly (keyof Schema[T] & string)[]>(
  codec: Codec,
  matching: SelectQueryBuilder<Schema, T, object>,
  columns: C,
  page: Page,
): Promise<PageResult<Pick<Schema[T], C[number]>>> {
  const counted = await matching.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const items = await afterKey(matching as unknown as SelectQueryBuilder<Schema, CreatedTable, object>, page.after)
    .select(columns as never)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { items: items as unknown as Pick<Schema[T], C[number]>[], total: codec.count(counted.total) };
}

/** Rows after `after` in the order (created_at, id) descending: a row comparison, served by the (workspace_id, created_at, id) indexes. */
export function afterKey<T extends CreatedTable | 'leads' | 'identities'>(
  query: SelectQueryBuilder<Schema, T, object>,
  after: Keyset | undefined,
): SelectQueryBuilder<Schema, T, object> {
  if (after === undefined) return query;
  const q = query as unknown as SelectQueryBuilder<Schema, 'leads', object>;
  return q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.at, after.id))) as unknown as SelectQueryBuilder<
    Schema,
    T,
    object
  >;
}

/** `text` as a LIKE pattern, escaped by backslashes (LIKE ... ESCAPE '\'), that matches it literally anywhere in a value. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
