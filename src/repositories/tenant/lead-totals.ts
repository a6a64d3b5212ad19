/**
 * The exact total of a lead list (CONTRACT C3.9) without scanning the
 * workspace: whole days come from lead_counts, and only the edge days of a
 * created_at range are counted row by row (through the index that serves
 * the filter), each from whichever end of its day is nearer to the bound:
 * the rows before a bound late in its day are the day's count less those
 * after it. So date-only bounds (midnight) cost almost nothing. A code
 * filter is counted directly: codes are nearly unique, so its index range is
 * short. docs/postgres-plans.md says why totals are kept this way.
 */
import { param } from '../../db/query-templates.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { bucketOf, dayOf, nextDay, startOfDay, type LeadCountsRepository } from './lead-counts.repository.js';
import { filterValues, matching, shapeOf, type LeadFilters } from './lead-filters.js';

/** A created_at range within one day: a lower bound (inclusive `from` or strict `above`) and an upper one. */
type Span = ({ from: string } | { above: string }) & ({ through: string } | { below: string });

/** Whether an instant lies in the first half of its UTC day. */
function earlyInDay(instant: string): boolean {
  return Date.parse(instant) - Date.parse(startOfDay(instant)) < 43_200_000;
}

export async function countLeads(scope: TenantScope, counts: LeadCountsRepository, filters: LeadFilters): Promise<number> {
  const { createdAfter: after, createdBefore: before, source } = filters;
  if (filters.code !== undefined) return countRows(scope, filters);
  if (after !== undefined && before !== undefined) {
    if (after >= before) return 0;
    if (dayOf(after) === dayOf(before)) return countRows(scope, filters);
  }
  const wholeAfterDay = after !== undefined && earlyInDay(after);
  const wholeBeforeDay = before !== undefined && !earlyInDay(before);
  let total = await counts.sum(bucketOf(source), {
    after: after === undefined ? undefined : { day: dayOf(after), inclusive: wholeAfterDay },
    before: before === undefined ? undefined : { day: dayOf(before), inclusive: wholeBeforeDay },
  });
  if (after !== undefined) {
    total += wholeAfterDay
      ? -(await countSpan(scope, source, { from: startOfDay(after), through: after }))
      : await countSpan(scope, source, { above: after, below: nextDay(after) });
  }
  if (before !== undefined) {
    total += wholeBeforeDay
      ? -(await countSpan(scope, source, { from: before, below: nextDay(before) }))
      : await countSpan(scope, source, { from: startOfDay(before), below: before });
  }
  return total;
}

/** Counts matching rows one by one. */
async function countRows(scope: TenantScope, filters: LeadFilters): Promise<number> {
  const row = await scope
    .template(`leads.countRows:${shapeOf(filters)}`, (q) => matching(q, filters).select((eb) => eb.fn.countAll().as('total')))
    .first(filterValues(filters));
  return scope.codec.count(row?.total ?? 0);
}

/** Counts the rows of one source (or all) whose created_at lies in `span`, within one day. */
async function countSpan(scope: TenantScope, source: string | undefined, span: Span): Promise<number> {
  const lower = 'from' in span ? '>=' : '>';
  const upper = 'through' in span ? '<=' : '<';
  const row = await scope
    .template(`leads.countSpan:${source === undefined ? '' : 's'}${lower}${upper}`, (q) => {
      let query = q.selectFrom('leads');
      if (source !== undefined) query = query.where('source', '=', param('source'));
      return query
        .where('created_at', lower, param('lower'))
        .where('created_at', upper, param('upper'))
        .select((eb) => eb.fn.countAll().as('total'));
    })
    .first({
      source,
      lower: 'from' in span ? span.from : span.above,
      upper: 'through' in span ? span.through : span.below,
    });
  return scope.codec.count(row?.total ?? 0);
}
