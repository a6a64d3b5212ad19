/**
 * The segment builder's model (C9.6): a rule as rows of controls (a group
 * of conditions matched all or any, each a field test, an event test or a
 * nested group), turned into the rule grammar's JSON and back. A saved rule
 * that the controls cannot show exactly comes back with the reason, and
 * the page offers the JSON editor instead. The grammar's words are the
 * server's own (src/intelligence/segments/grammar.ts). Its imports name
 * their .js files, as the server's do, so that test/dashboard checks it
 * under the server's module rules too.
 */
import {
  COMPANY_FIELDS,
  EVENT_KINDS,
  IDENTITY_FIELDS,
  MAX_AT_LEAST,
  MAX_RULE_DEPTH,
  MAX_WITHIN_DAYS,
  NUMBER_OPERATORS,
  TEXT_OPERATORS,
  TRAIT_PREFIX,
} from '../../src/intelligence/segments/grammar.js';
import type { Condition, SegmentRule } from '../../src/intelligence/segments/rule.js';

export { COMPANY_FIELDS, EVENT_KINDS, IDENTITY_FIELDS, MAX_RULE_DEPTH };

export type Match = 'all' | 'any';
export interface FieldRow {
  type: 'field';
  key: number;
  /** a field of the grammar, or `trait` (the key in traitKey) */
  field: string;
  traitKey: string;
  /** an operator of the grammar, or exists:true / exists:false */
  op: string;
  value: string;
}
export interface EventRow {
  type: 'events';
  key: number;
  kind: string;
  path: string;
  name: string;
  atLeast: string;
  withinDays: string;
}
export interface GroupRow {
  type: 'group';
  key: number;
  match: Match;
  conditions: Row[];
}
export type Row = FieldRow | EventRow | GroupRow;

let nextKey = 1;
export const newKey = () => nextKey++;

export const FIELD_LABELS: Record<string, string> = {
  email: 'Email',
  name: 'Name',
  city: 'City',
  country: 'Country',
  is_favorite: 'Favourite',
  score: 'Score',
  status: 'Status',
  'company.name': 'Company name',
  'company.domain': 'Company domain',
  'company.employees': 'Company employees',
  'company.main_industry': 'Company industry',
  trait: 'Trait',
  events: 'Events in a window',
};

export const OPERATOR_LABELS: Record<string, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  starts_with: 'starts with',
  ends_with: 'ends with',
  in: 'is one of',
  gt: 'is more than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  'exists:true': 'is set',
  'exists:false': 'is not set',
};

export const EVENT_KIND_LABELS: Record<string, string> = {
  page_view: 'Page views',
  pricing: 'Pricing page views',
  docs: 'Docs page views',
  blog: 'Blog page views',
  careers: 'Careers page views',
  security: 'Security page views',
  comparison: 'Comparison page views',
  track: 'Tracked events',
  identify: 'Identifies',
  conversion: 'Conversions',
};

/** The operators a field offers: numbers compare, a favourite is yes or no, text does the rest (traits both). */
export function operatorsFor(field: string): string[] {
  if (field === 'is_favorite') return ['eq'];
  if (field === 'score') return [...NUMBER_OPERATORS, 'eq', 'neq', 'exists:true', 'exists:false'];
  const text = [...TEXT_OPERATORS, 'in', 'exists:true', 'exists:false'];
  return field === 'trait' ? [...text, ...NUMBER_OPERATORS] : text;
}

export const newField = (): FieldRow => ({ type: 'field', key: newKey(), field: 'trait', traitKey: '', op: 'eq', value: '' });
export const newEvents = (): EventRow => ({ type: 'events', key: newKey(), kind: 'page_view', path: '', name: '', atLeast: '1', withinDays: '7' });
export const newGroup = (match: Match = 'all', conditions: Row[] = [newField()]): GroupRow => ({ type: 'group', key: newKey(), match, conditions });

/** The field's name in the grammar (trait.<key> for a trait). */
export const grammarField = (row: FieldRow) => (row.field === 'trait' ? `${TRAIT_PREFIX}${row.traitKey.trim()}` : row.field);

function wholeNumber(text: string, least: number, most: number): number | undefined {
  const number = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(number) && number >= least && number <= most ? number : undefined;
}

/** The value as the grammar wants it for this field and operator, or a problem in words. */
function fieldValue(row: FieldRow): { value?: unknown; problem?: string } {
  const label = FIELD_LABELS[row.field] ?? row.field;
  if (row.op.startsWith('exists:')) return { value: row.op === 'exists:true' };
  if (row.field === 'is_favorite') return { value: row.value !== 'false' };
  const text = row.value.trim();
  if (text === '') return { problem: `${label}: choose or type a value` };
  if (row.op === 'in') return { value: text.split(',').map((part) => part.trim()).filter((part) => part !== '') };
  if (row.field === 'score' || (NUMBER_OPERATORS as readonly string[]).includes(row.op)) {
    const number = Number(text);
    return Number.isFinite(number) ? { value: number } : { problem: `${label}: the value must be a number` };
  }
  return { value: text };
}

function conditionOf(row: Row): { condition?: Condition; problem?: string } {
  if (row.type === 'group') {
    const inner = ruleOf(row);
    return inner.rule === undefined ? { problem: inner.problem } : { condition: inner.rule };
  }
  if (row.type === 'events') {
    const atLeast = wholeNumber(row.atLeast, 1, MAX_AT_LEAST);
    const withinDays = wholeNumber(row.withinDays, 1, MAX_WITHIN_DAYS);
    if (atLeast === undefined) return { problem: `Events: "at least" is a whole number from 1 to ${MAX_AT_LEAST}` };
    if (withinDays === undefined) return { problem: `Events: "in the last … days" is a whole number from 1 to ${MAX_WITHIN_DAYS}` };
    const events = {
      kind: row.kind as (typeof EVENT_KINDS)[number],
      ...(row.path.trim() === '' ? {} : { path: row.path.trim() }),
      ...(row.name.trim() === '' ? {} : { name: row.name.trim() }),
      at_least: atLeast,
      within_days: withinDays,
    };
    return { condition: { events } };
  }
  if (row.field === 'trait' && row.traitKey.trim() === '') return { problem: 'Trait: choose or type the trait’s name' };
  const { value, problem } = fieldValue(row);
  if (problem !== undefined) return { problem };
  const op = row.op.startsWith('exists:') ? 'exists' : row.op;
  return { condition: { field: grammarField(row), op, value } as Condition };
}

/** The group as a rule of the grammar, or the first problem in words. */
export function ruleOf(group: GroupRow): { rule?: SegmentRule; problem?: string } {
  if (group.conditions.length === 0) return { problem: 'Add at least one condition to every group' };
  const conditions: Condition[] = [];
  for (const row of group.conditions) {
    const { condition, problem } = conditionOf(row);
    if (condition === undefined) return { problem };
    conditions.push(condition);
  }
  return { rule: group.match === 'all' ? { all: conditions } : { any: conditions } };
}

/** Rows of controls for a saved rule, or why the controls cannot show it exactly. */
export function rowsOf(rule: unknown, depth = 1): { group?: GroupRow; reason?: string } {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) return { reason: 'the rule is not an object' };
  const record = rule as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length !== 1 || (keys[0] !== 'all' && keys[0] !== 'any') || !Array.isArray(record[keys[0]])) return { reason: 'a group is not "all" or "any" of a list of conditions' };
  if (depth > MAX_RULE_DEPTH) return { reason: `groups nest deeper than ${MAX_RULE_DEPTH} levels` };
  const conditions: Row[] = [];
  for (const [index, condition] of (record[keys[0]] as unknown[]).entries()) {
    const place = `condition ${index + 1}`;
    if (condition === null || typeof condition !== 'object') return { reason: `${place} is not an object` };
    const c = condition as Record<string, unknown>;
    if ('all' in c || 'any' in c) {
      const inner = rowsOf(c, depth + 1);
      if (inner.group === undefined) return inner;
      conditions.push(inner.group);
    } else if ('events' in c) {
      const e = c.events as Record<string, unknown>;
      conditions.push({
        type: 'events',
        key: newKey(),
        kind: String(e.kind),
        path: typeof e.path === 'string' ? e.path : '',
        name: typeof e.name === 'string' ? e.name : '',
        atLeast: String(e.at_least),
        withinDays: String(e.within_days),
      });
    } else {
      const field = String(c.field);
      const isTrait = field.startsWith(TRAIT_PREFIX);
      const row: FieldRow = {
        type: 'field',
        key: newKey(),
        field: isTrait ? 'trait' : field,
        traitKey: isTrait ? field.slice(TRAIT_PREFIX.length) : '',
        op: c.op === 'exists' ? `exists:${String(c.value === true)}` : String(c.op),
        value: Array.isArray(c.value) ? c.value.map(String).join(', ') : c.op === 'exists' ? '' : String(c.value),
      };
      if (!operatorsFor(row.field).includes(row.op)) return { reason: `${place} uses "${String(c.op)}" on ${field}, which the builder does not offer there` };
      // the controls write values of one type per field and operator: anything else would change the rule when saved again
      const again = conditionOf(row).condition as { value?: unknown } | undefined;
      if (again === undefined || JSON.stringify(again.value) !== JSON.stringify(c.value)) {
        return { reason: `${place} compares ${field} with ${JSON.stringify(c.value)}, a value the builder would write differently` };
      }
      conditions.push(row);
    }
  }
  return { group: { type: 'group', key: newKey(), match: keys[0] as Match, conditions } };
}
