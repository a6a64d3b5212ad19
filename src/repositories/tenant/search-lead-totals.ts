/**
 * A leads search (CONTRACT C11.3) whose conditions are ones the lead list
 * also has (source and code equality, created_at bounds, in a single group,
 * or none) gets its exact total the list's way (lead-totals.ts): from the
 * day counters of lead_counts, plus the rows of the range's edge days,
 * instead of counting every matching row. At a million leads that is the
 * difference between reading a tenth of an index (or all of it) and reading
 * a few hundred counters (BENCHMARKS.md, "Performance, round three: bulk").
 * Any other search is counted row by row, as before.
 */
import { formatInstant } from '../../schemas/instants.js';
import type { LeadFilters } from './lead-filters.js';
import type { SearchCondition } from './search-filter.js';

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `instant` moved by `ms` milliseconds, or undefined outside the canonical form's years. */
function shifted(instant: string, ms: number): string | undefined {
  const parsed = Date.parse(instant);
  if (!CANONICAL.test(instant) || Number.isNaN(parsed)) return undefined;
  const moved = formatInstant(parsed + ms);
  return CANONICAL.test(moved) ? moved : undefined;
}

/**
 * The list filters equal to the search's groups, or undefined when the
 * search says something they cannot. Instants are stored to the
 * millisecond, so `>= t` is `> t − 1 ms` and `<= t` is `< t + 1 ms`.
 */
export function asLeadFilters(groups: readonly (readonly SearchCondition[])[]): LeadFilters | undefined {
  if (groups.length === 0) return {};
  if (groups.length > 1) return undefined;
  const filters: LeadFilters = {};
  for (const condition of groups[0] as readonly SearchCondition[]) {
    const { target, op, value } = condition;
    if (target.kind !== 'column' || typeof value !== 'string') return undefined;
    if (target.column === 'source' || target.column === 'code') {
      const field = target.column;
      if (op !== 'eq' || (filters[field] !== undefined && filters[field] !== value)) return undefined;
      filters[field] = value;
      continue;
    }
    if (target.column !== 'created_at') return undefined;
    const bound = op === 'gt' ? value : op === 'gte' ? shifted(value, -1) : op === 'lt' ? value : op === 'lte' ? shifted(value, 1) : undefined;
    if (bound === undefined) return undefined;
    if (op === 'gt' || op === 'gte') {
      if (filters.createdAfter === undefined || bound > filters.createdAfter) filters.createdAfter = bound;
    } else if (filters.createdBefore === undefined || bound < filters.createdBefore) filters.createdBefore = bound;
  }
  return filters;
}
