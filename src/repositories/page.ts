/**
 * Pages of a list, as every list endpoint reads them (CONTRACT C3.9, C3.10):
 * an offset and a limit, newest first by created_at then id, with the exact
 * total of the matching rows.
 */
import type { SelectQueryBuilder } from 'kysely';
import type { Codec } from '../db/codec.js';
import type { Schema } from '../db/schema.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

/** Tables listed newest first by `created_at`, then `id`. */
export type CreatedTable = 'identity_activity' | 'companies' | 'visitor_lists';

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
  const items = await (matching as unknown as SelectQueryBuilder<Schema, CreatedTable, object>)
    .select(columns as never)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { items: items as unknown as Pick<Schema[T], C[number]>[], total: codec.count(counted.total) };
}

/** `text` as a LIKE pattern, escaped by backslashes (LIKE ... ESCAPE '\'), that matches it literally anywhere in a value. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
