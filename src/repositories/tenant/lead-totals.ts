/**
 * The exact total of a lead list (CONTRACT C3.9) without scanning the
 * workspace: whole days come from lead_counts, and only the edge days of a
 * created_at range are counted row by row (through the index that serves
 * the filter), each from whichever end of its day is nearer to the bound:
 * the rows before a bound late in its day are the day's count less those
 * after it. So date-only bounds (midnight) cost almost nothing. A code
 * filter is counted directly: codes are nearly unique, so its index range is
 * short. docs/postgres-plans.md says why totals are kept this way.
 *
 * A total is a sum of terms, each a one-row subquery: run alone
 * (countLeads) or selected beside the rows of a page (totalExpression), so
 * that a page and its total come from one statement, one snapshot and one
 * round trip.
 */
import type { AliasableExpression, ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';
import type { TenantScope } from '../scope/tenant-scope.js';
import { bucketOf, dayOf, nextDay, startOfDay } from './lead-counts.repository.js';
import { filterValues, matching, shapeOf, type LeadFilters } from './lead-filters.js';
import { seenVersion, versionColumns, type StoreVersion, type TotalCache } from './total-cache.js';

/** One part of a total: a subquery of one row and one column, added or subtracted. */
interface Term {
  sign: 1 | -1;
  /** what changes the SQL text of the subquery */
  shape: string;
  build: (scope: TenantScope) => SelectQueryBuilder<Schema, never, { total: unknown }>;
}

/** The terms of a total and the values of their placeholders. */
export interface TotalPlan {
  /** one template per shape: names every term */
  shape: string;
  terms: Term[];
  values: Record<string, unknown>;
}

/** Whether an instant lies in the first half of its UTC day. */
function earlyInDay(instant: string): boolean {
  return Date.parse(instant) - Date.parse(startOfDay(instant)) < 43_200_000;
}

/** The terms whose sum is the number of leads matching `filters`; none when it is known to be 0. */
export function planTotal(filters: LeadFilters): TotalPlan {
  const { createdAfter: after, createdBefore: before, source } = filters;
  const values: Record<string, unknown> = { ...filterValues(filters) };
  const terms: Term[] = [];
  const plan = (): TotalPlan => ({ shape: terms.map((term) => `${term.sign > 0 ? '+' : '-'}${term.shape}`).join(''), terms, values });
  if (filters.code !== undefined || (after !== undefined && before !== undefined && dayOf(after) === dayOf(before))) {
    if (after === undefined || before === undefined || after < before) terms.push(rowsTerm(filters));
    return plan();
  }
  if (after !== undefined && before !== undefined && after >= before) return plan();
  const wholeAfterDay = after !== undefined && earlyInDay(after);
  const wholeBeforeDay = before !== undefined && !earlyInDay(before);
  terms.push(daysTerm(after === undefined ? undefined : wholeAfterDay, before === undefined ? undefined : wholeBeforeDay));
  values.bucket = bucketOf(source);
  values.afterDay = after === undefined ? undefined : dayOf(after);
  values.beforeDay = before === undefined ? undefined : dayOf(before);
  if (after !== undefined) {
    // the rows of the first day up to the bound are counted in the day's counter: take them out; or add those after it
    if (wholeAfterDay) terms.push(spanTerm(-1, 'A', source, { from: true, through: true }));
    else terms.push(spanTerm(1, 'A', source, { from: false, through: false }));
    Object.assign(values, wholeAfterDay ? { A_lower: startOfDay(after), A_upper: after } : { A_lower: after, A_upper: nextDay(after) });
  }
  if (before !== undefined) {
    if (wholeBeforeDay) {
      terms.push(spanTerm(-1, 'B', source, { from: true, through: false }));
      Object.assign(values, { B_lower: before, B_upper: nextDay(before) });
    } else if (before !== startOfDay(before)) {
      // a bound at midnight has no rows before it on its day
      terms.push(spanTerm(1, 'B', source, { from: true, through: false }));
      Object.assign(values, { B_lower: startOfDay(before), B_upper: before });
    }
  }
  return plan();
}

/** The sum of a bucket's day counters over the range (after/before: whether their day is counted whole). */
function daysTerm(afterWhole: boolean | undefined, beforeWhole: boolean | undefined): Term {
  const shape = `d${afterWhole === undefined ? '' : afterWhole ? 'A' : 'a'}${beforeWhole === undefined ? '' : beforeWhole ? 'B' : 'b'}`;
  return {
    sign: 1,
    shape,
    build: (scope) => {
      let query = scope
        .selectFrom('lead_counts')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('lead_counts.count'), eb.lit(0)).as('total'))
        .where('lead_counts.bucket', '=', param('bucket'));
      if (afterWhole !== undefined) query = query.where('lead_counts.day', afterWhole ? '>=' : '>', param('afterDay'));
      if (beforeWhole !== undefined) query = query.where('lead_counts.day', beforeWhole ? '<=' : '<', param('beforeDay'));
      return query as unknown as SelectQueryBuilder<Schema, never, { total: unknown }>;
    },
  };
}

/** The rows of one source (or all) within one day, between the bounds named `<name>_lower` and `<name>_upper`. */
function spanTerm(sign: 1 | -1, name: string, source: string | undefined, bounds: { from: boolean; through: boolean }): Term {
  const lower = bounds.from ? '>=' : '>';
  const upper = bounds.through ? '<=' : '<';
  return {
    sign,
    shape: `${name}${source === undefined ? '' : 's'}${lower}${upper}`,
    build: (scope) => {
      let query = scope.selectFrom('leads');
      if (source !== undefined) query = query.where('leads.source', '=', param('source'));
      return query
        .where('leads.created_at', lower, param(`${name}_lower`))
        .where('leads.created_at', upper, param(`${name}_upper`))
        .select((eb) => eb.fn.countAll().as('total')) as unknown as SelectQueryBuilder<Schema, never, { total: unknown }>;
    },
  };
}

/** Every matching row, counted one by one (a code filter, or a range within one day). */
function rowsTerm(filters: LeadFilters): Term {
  return {
    sign: 1,
    shape: `r${shapeOf(filters)}`,
    build: (scope) =>
      matching(scope, filters).select((eb) => eb.fn.countAll().as('total')) as unknown as SelectQueryBuilder<Schema, never, { total: unknown }>,
  };
}

/** The plan's total as one expression of its subqueries (0 when it has none), for a select list. */
export function totalExpression(scope: TenantScope, plan: TotalPlan, eb: ExpressionBuilder<Schema, 'leads'>): AliasableExpression<unknown> {
  let total: AliasableExpression<unknown> = eb.lit(0);
  plan.terms.forEach((term, index) => {
    const subquery = term.build(scope);
    total = index === 0 && term.sign > 0 ? subquery : eb(total as never, term.sign > 0 ? '+' : '-', subquery as never);
  });
  return total;
}

/** The number of leads matching `filters`: each term a statement of its own. */
export async function countLeads(scope: TenantScope, filters: LeadFilters): Promise<number> {
  const plan = planTotal(filters);
  let total = 0;
  for (const term of plan.terms) {
    const row = await scope.template(`leads.total:${term.shape}`, (q) => term.build(q)).first(plan.values);
    total += term.sign * scope.codec.count((row?.total ?? 0) as number);
  }
  return total;
}

/** What names a total in a TotalCache: the workspace, the plan's shape and its values. */
export function totalKey(workspaceId: string, plan: TotalPlan): string {
  return `${workspaceId} ${plan.shape} ${JSON.stringify(plan.values)}`;
}

/**
 * The number of leads matching `filters` inside a read snapshot, through
 * `cache`: the store's version is read first (the snapshot's), and the
 * counters are summed only when it is not the remembered one. Answers the
 * list's key and the version too, for the deep page's anchors (offset-anchors.ts).
 */
export async function countLeadsCached(
  scope: TenantScope,
  filters: LeadFilters,
  cache: TotalCache,
): Promise<{ total: number; key: string; seen: StoreVersion }> {
  const key = totalKey(scope.workspaceId, planTotal(filters));
  const row = await scope.template('leads.storeVersion', (q) => q.selectNoFrom<{ store_version: unknown; store_changes: unknown }>(() => versionColumns())).first();
  if (row === undefined) throw new Error('a select without a table answered no row');
  const seen = seenVersion(row);
  const remembered = cache.get(key, seen);
  if (remembered !== undefined) return { total: remembered, key, seen };
  const total = await countLeads(scope, filters);
  cache.remember(key, seen, total);
  return { total, key, seen };
}
