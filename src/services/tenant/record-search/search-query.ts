/**
 * A search body (CONTRACT C11.3) checked and turned into a SearchQuery: at
 * most 5 groups of at most 10 conditions (any of all), each a field of the
 * resource or a JSON path, an operator that fits it and a value of its type;
 * a sort on one field; a limit. A problem is a 400 naming the offending part
 * (`filter.any[1].all[2].op`). The repository builds SQL from the result only.
 */
import { isUuid } from '../../../schemas/fields.js';
import { normalizeInstant } from '../../../schemas/instants.js';
import { InvalidRequestError } from '../../errors.js';
import type { ColumnKind, Scalar, SearchCondition, SearchOperator, SearchSort, SearchTarget } from '../../../repositories/tenant/search-filter.js';
import { COLUMN_FIELDS, JSON_FIELDS, JSON_SEGMENT, MAX_PATH_SEGMENTS, sortable, type SearchResource } from './search-fields.js';

export const MAX_GROUPS = 5;
export const MAX_CONDITIONS = 10;
export const MAX_IN_VALUES = 100;
export const SEARCH_OPERATORS: readonly SearchOperator[] = ['eq', 'neq', 'in', 'contains', 'gt', 'gte', 'lt', 'lte', 'exists'];
export const DEFAULT_SEARCH_LIMIT = 50;
export const MAX_SEARCH_LIMIT = 100;

export interface SearchQuery {
  /** any of these groups; each group all of its conditions; none: every row */
  groups: SearchCondition[][];
  sort: SearchSort;
  limit: number;
  cursor: string | undefined;
}

interface Problem {
  at: string;
  reason: string;
}

const problem = (at: string, reason: string): Problem => ({ at, reason });
const isProblem = (value: object): value is Problem => 'reason' in value;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const isScalar = (value: unknown): value is Scalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

function unknownKey(value: Record<string, unknown>, allowed: readonly string[], at: string): Problem | undefined {
  const extra = Object.keys(value).find((name) => !allowed.includes(name));
  return extra === undefined ? undefined : problem(at === '' ? extra : `${at}.${extra}`, 'is not a known field');
}

function targetOf(resource: SearchResource, field: string): SearchTarget | string {
  const column = COLUMN_FIELDS[resource][field];
  if (column !== undefined) return { kind: 'column', column: column.column, type: column.kind };
  const [head, ...path] = field.split('.');
  if (head === undefined || !JSON_FIELDS[resource].includes(head)) {
    const json = JSON_FIELDS[resource].map((name) => `${name}.<path>`);
    return `must be one of ${[...Object.keys(COLUMN_FIELDS[resource]), ...json].join(', ')}`;
  }
  if (path.length === 0 || path.length > MAX_PATH_SEGMENTS || !path.every((segment) => JSON_SEGMENT.test(segment))) {
    return `a path of 1 to ${MAX_PATH_SEGMENTS} keys of letters, digits, _ and -, joined by dots`;
  }
  return { kind: 'json', column: head, path };
}

/** The value, as the store compares it with the target, or the reason it does not fit. */
function valueFor(target: SearchTarget, op: SearchOperator, value: unknown): Scalar | string[] {
  if (!isScalar(value)) return ['must be a string, a number or a boolean'];
  if (target.kind === 'json') {
    if (op === 'contains' && typeof value !== 'string') return ['must be a string'];
    if (['gt', 'gte', 'lt', 'lte'].includes(op) && typeof value === 'boolean') return ['must be a string or a number'];
    return value;
  }
  switch (target.type) {
    case 'text':
      return typeof value === 'string' ? value : ['must be a string'];
    case 'uuid':
      return typeof value === 'string' && isUuid(value) ? value.toLowerCase() : ['must be a UUID'];
    case 'bool':
      return typeof value === 'boolean' ? value : ['must be true or false'];
    case 'instant': {
      const instant = typeof value === 'string' ? normalizeInstant(value) : null;
      return instant ?? ['must be an ISO 8601 date or date-time'];
    }
  }
}

/** Which operators a column kind takes (a JSON path takes them all). */
const COLUMN_OPERATORS: Record<ColumnKind, readonly SearchOperator[]> = {
  text: SEARCH_OPERATORS,
  uuid: ['eq', 'neq', 'in', 'exists'],
  bool: ['eq', 'neq', 'exists'],
  instant: ['eq', 'neq', 'in', 'gt', 'gte', 'lt', 'lte', 'exists'],
};

function conditionOf(resource: SearchResource, raw: unknown, at: string): SearchCondition | Problem {
  if (!isObject(raw)) return problem(at, 'must be a JSON object');
  const extra = unknownKey(raw, ['field', 'op', 'value'], at);
  if (extra !== undefined) return extra;
  if (typeof raw.field !== 'string') return problem(`${at}.field`, raw.field === undefined ? 'is required' : 'must be a string');
  const target = targetOf(resource, raw.field);
  if (typeof target === 'string') return problem(`${at}.field`, target);
  const op = raw.op as SearchOperator;
  if (!SEARCH_OPERATORS.includes(op)) return problem(`${at}.op`, `must be one of ${SEARCH_OPERATORS.join(', ')}`);
  if (target.kind === 'column' && !COLUMN_OPERATORS[target.type].includes(op)) {
    return problem(`${at}.op`, `must be one of ${COLUMN_OPERATORS[target.type].join(', ')} for ${raw.field}`);
  }
  if (op === 'exists') {
    return typeof raw.value === 'boolean' ? { target, op, value: raw.value } : problem(`${at}.value`, 'must be true or false');
  }
  if (op === 'in') {
    if (!Array.isArray(raw.value) || raw.value.length < 1 || raw.value.length > MAX_IN_VALUES) {
      return problem(`${at}.value`, `must be an array of 1 to ${MAX_IN_VALUES} values`);
    }
    const values: Scalar[] = [];
    for (const [index, item] of raw.value.entries()) {
      const value = valueFor(target, op, item);
      if (Array.isArray(value)) return problem(`${at}.value[${index}]`, value[0]!);
      values.push(value);
    }
    return { target, op, value: values };
  }
  const value = valueFor(target, op, raw.value);
  if (Array.isArray(value)) return problem(`${at}.value`, value[0]!);
  return { target, op, value };
}

function groupsOf(resource: SearchResource, filter: unknown): SearchCondition[][] | Problem {
  if (filter === undefined) return [];
  if (!isObject(filter)) return problem('filter', 'must be a JSON object');
  const extra = unknownKey(filter, ['any'], 'filter');
  if (extra !== undefined) return extra;
  const { any } = filter;
  if (!Array.isArray(any)) return problem('filter.any', any === undefined ? 'is required' : 'must be an array');
  if (any.length < 1 || any.length > MAX_GROUPS) return problem('filter.any', `must hold 1 to ${MAX_GROUPS} groups`);
  const groups: SearchCondition[][] = [];
  for (const [g, group] of any.entries()) {
    const at = `filter.any[${g}]`;
    if (!isObject(group)) return problem(at, 'must be a JSON object');
    const extraKey = unknownKey(group, ['all'], at);
    if (extraKey !== undefined) return extraKey;
    const { all } = group;
    if (!Array.isArray(all)) return problem(`${at}.all`, all === undefined ? 'is required' : 'must be an array');
    if (all.length < 1 || all.length > MAX_CONDITIONS) return problem(`${at}.all`, `must hold 1 to ${MAX_CONDITIONS} conditions`);
    const conditions: SearchCondition[] = [];
    for (const [c, raw] of all.entries()) {
      const condition = conditionOf(resource, raw, `${at}.all[${c}]`);
      if (isProblem(condition)) return condition;
      conditions.push(condition);
    }
    groups.push(conditions);
  }
  return groups;
}

function sortOf(resource: SearchResource, sort: unknown): SearchSort | Problem {
  const fallback = { field: 'created_at', column: 'created_at', order: 'desc', nullable: false } as const;
  if (sort === undefined) return fallback;
  if (!Array.isArray(sort)) return problem('sort', 'must be an array');
  if (sort.length > 1) return problem('sort', 'must hold at most 1 field (ties are broken by id, in the same order)');
  const [entry] = sort as unknown[];
  if (entry === undefined) return fallback;
  if (!isObject(entry)) return problem('sort[0]', 'must be a JSON object');
  const extra = unknownKey(entry, ['field', 'order'], 'sort[0]');
  if (extra !== undefined) return extra;
  const fields = sortable(resource);
  if (typeof entry.field !== 'string' || !fields.includes(entry.field)) return problem('sort[0].field', `must be one of ${fields.join(', ')}`);
  const order = entry.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') return problem('sort[0].order', 'must be asc or desc');
  const column = COLUMN_FIELDS[resource][entry.field]!;
  return { field: entry.field, column: column.column, order, nullable: column.nullable };
}

/** The search a body asks for, or the 400 naming its first problem. */
export function parseSearch(resource: SearchResource, body: unknown, queryCursor?: string): SearchQuery {
  const result = searchOf(resource, body, queryCursor);
  if (!isProblem(result)) return result;
  throw new InvalidRequestError(`${result.at} ${result.reason}`, { fields: { [result.at]: result.reason } });
}

function searchOf(resource: SearchResource, body: unknown, queryCursor: string | undefined): SearchQuery | Problem {
  const value = body ?? {};
  if (!isObject(value)) return problem('body', 'must be a JSON object');
  const extra = unknownKey(value, ['filter', 'sort', 'limit', 'cursor'], '');
  if (extra !== undefined) return extra;
  const groups = groupsOf(resource, value.filter);
  if (!Array.isArray(groups)) return groups;
  const sort = sortOf(resource, value.sort);
  if (isProblem(sort)) return sort;
  const limit = value.limit ?? DEFAULT_SEARCH_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    return problem('limit', `must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  if (value.cursor !== undefined && typeof value.cursor !== 'string') return problem('cursor', 'must be a string');
  if (value.cursor !== undefined && queryCursor !== undefined && value.cursor !== queryCursor) {
    return problem('cursor', 'differs from the cursor of the query string');
  }
  return { groups, sort, limit, cursor: (value.cursor as string | undefined) ?? queryCursor };
}
