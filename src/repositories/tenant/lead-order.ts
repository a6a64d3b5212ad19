/**
 * The orders of the lead list other than newest first (CONTRACT C9.3:
 * `sort=created_at`, `score`, `-score`), as keyset pages that never skip or
 * repeat a lead. Ties are broken by id, in the direction of the sort. Leads
 * without a score (summary.score absent or not a number: the generated
 * column `score`, migration 0015a) come after every scored lead in both
 * directions; they are read by a second statement, by id, so each statement
 * walks the (workspace_id, score, id) index in one direction and neither
 * store needs NULLS LAST. A cursor in that tail has an empty sort value.
 */
import { param } from '../../db/query-templates.js';
import type { Codec } from '../../db/codec.js';
import type { Keyset, Page } from '../page.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { filterValues, matching, shapeOf, type LeadFilters } from './lead-filters.js';

export const LEAD_SORTS = ['-created_at', 'created_at', '-score', 'score'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

type Direction = 'asc' | 'desc';

/** A row of a sorted page: the lead's columns and its keyset in that order. */
export interface Keyed<Row> {
  row: Row;
  key: Keyset;
}

const directionOf = (sort: LeadSort): Direction => (sort.startsWith('-') ? 'desc' : 'asc');
const beyond = (direction: Direction) => (direction === 'desc' ? '<' : '>');

/** Oldest first (`sort=created_at`): the (workspace_id, created_at, id) index read forwards. */
export async function oldestFirst<C extends readonly string[], Row extends { created_at: string; id: string }>(
  scope: TenantScope,
  columns: C,
  filters: LeadFilters,
  page: Page,
): Promise<Keyed<Row>[]> {
  const { after } = page;
  const rows = await scope
    .template(`leads.oldestFirst:${shapeOf(filters)}${after === undefined ? '' : ':after'}`, (q) => {
      const query = matching(q, filters);
      return (after === undefined ? query : query.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(param('afterAt'), param('afterId')))))
        .select(columns as never)
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(param<number>('limit'))
        .offset(param<number>('offset'));
    })
    .all({ ...filterValues(filters), limit: page.limit, offset: page.offset, afterAt: after?.at, afterId: after?.id });
  return (rows as unknown as Row[]).map((row) => ({ row, key: { at: row.created_at, id: row.id } }));
}

/** By score, then id, in `sort`'s direction; the unscored leads last, by id in the same direction. */
export async function byScore<C extends readonly string[], Row extends { id: string }>(
  scope: TenantScope,
  codec: Codec,
  columns: C,
  sort: '-score' | 'score',
  filters: LeadFilters,
  page: Page,
): Promise<Keyed<Row>[]> {
  const direction = directionOf(sort);
  const shape = `${shapeOf(filters)}:${direction}`;
  const { after } = page;
  const inTail = after !== undefined && after.at === '';
  const keyed: Keyed<Row>[] = [];
  if (!inTail) {
    const scored = await scope
      .template(`leads.byScore:${shape}${after === undefined ? '' : ':after'}`, (q) => {
        const query = matching(q, filters).where('score', 'is not', null);
        return (
          after === undefined
            ? query
            : query.where((eb) => eb(eb.refTuple('score', 'id'), beyond(direction), eb.tuple(param('afterScore'), param('afterId'))))
        )
          .select(columns as never)
          .select('score')
          .orderBy('score', direction)
          .orderBy('id', direction)
          .limit(param<number>('limit'))
          .offset(param<number>('offset'));
      })
      .all({
        ...filterValues(filters),
        limit: page.limit,
        offset: page.offset,
        afterScore: after === undefined ? undefined : codec.kind === 'postgres' ? after.at : Number(after.at),
        afterId: after?.id,
      });
    for (const row of scored as unknown as (Row & { score: number | string })[]) {
      const { score, ...lead } = row;
      keyed.push({ row: lead as unknown as Row, key: { at: String(score), id: row.id } });
    }
    if (keyed.length >= page.limit) return keyed;
  }
  let tailOffset = 0;
  if (after === undefined && keyed.length === 0 && page.offset > 0) {
    const counted = await scope
      .template(`leads.scoredCount:${shapeOf(filters)}`, (q) =>
        matching(q, filters)
          .where('score', 'is not', null)
          .select((eb) => eb.fn.countAll().as('n')),
      )
      .first(filterValues(filters));
    tailOffset = Math.max(0, page.offset - codec.count(counted?.n ?? 0));
  }
  const tailAfter = inTail ? after.id : undefined;
  const unscored = await scope
    .template(`leads.unscored:${shape}${tailAfter === undefined ? '' : ':after'}`, (q) => {
      const query = matching(q, filters).where('score', 'is', null);
      return (tailAfter === undefined ? query : query.where('id', beyond(direction), param('afterId')))
        .select(columns as never)
        .orderBy('id', direction)
        .limit(param<number>('limit'))
        .offset(param<number>('offset'));
    })
    .all({ ...filterValues(filters), limit: page.limit - keyed.length, offset: tailOffset, afterId: tailAfter });
  for (const row of unscored as unknown as Row[]) keyed.push({ row, key: { at: '', id: row.id } });
  return keyed;
}
