/**
 * Whether one identity belongs in a rule segment now (CONTRACT C6.4). A
 * subject is what the rule may ask about one identity: its fields, traits,
 * company, score, and its events in a window (from its visitor's aggregates,
 * or, for tests with a page pattern or an event name, from a counter the
 * caller provides over the visitor's recent events). Pure.
 */
import { ageInDays, type ActivityKind, type VisitorAggregates } from '../aggregates.js';
import { patternRegExp } from '../page-kinds.js';
import type { Condition, EventTest, FieldTest, SegmentRule } from './rule.js';

export interface SegmentSubject {
  identity: {
    email: string | null;
    name: string | null;
    city: string | null;
    country: string | null;
    is_favorite: boolean;
    traits: Record<string, unknown>;
  };
  company: { name: string; domain: string | null; employees: string | null; main_industry: string | null } | null;
  score: number | null;
  status: string | null;
  aggregates: VisitorAggregates;
  /** events of a kind in the last `withinDays` days whose path matches or whose name is `name` */
  countEvents(test: EventTest['events'], matches: (path: string | null, name: string | null) => boolean): number;
  now: string;
}

function fieldValue(subject: SegmentSubject, field: string): unknown {
  if (field.startsWith('trait.')) return subject.identity.traits[field.slice('trait.'.length)];
  if (field.startsWith('company.')) {
    const company = subject.company;
    return company === null ? undefined : company[field.slice('company.'.length) as keyof typeof company];
  }
  if (field === 'score') return subject.score;
  if (field === 'status') return subject.status;
  return subject.identity[field as keyof SegmentSubject['identity']];
}

const text = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null);

function testField(subject: SegmentSubject, test: FieldTest): boolean {
  const actual = fieldValue(subject, test.field);
  const present = actual !== undefined && actual !== null && actual !== '';
  if (test.op === 'exists') return present === test.value;
  if (!present) return test.op === 'neq';
  if (test.op === 'in') return (test.value as unknown[]).some((candidate) => text(candidate) === text(actual));
  if (test.op === 'gt' || test.op === 'gte' || test.op === 'lt' || test.op === 'lte') {
    const number = typeof actual === 'number' ? actual : Number(actual);
    const bound = test.value as number;
    if (Number.isNaN(number)) return false;
    return test.op === 'gt' ? number > bound : test.op === 'gte' ? number >= bound : test.op === 'lt' ? number < bound : number <= bound;
  }
  const left = text(actual) ?? '';
  const right = text(test.value) ?? '';
  switch (test.op) {
    case 'eq':
      return left === right;
    case 'neq':
      return left !== right;
    case 'contains':
      return left.includes(right);
    case 'starts_with':
      return left.startsWith(right);
    case 'ends_with':
      return left.endsWith(right);
  }
  return false;
}

function testEvents(subject: SegmentSubject, test: EventTest): boolean {
  const { kind, path, name, at_least: atLeast, within_days: withinDays } = test.events;
  if (path === undefined && name === undefined) {
    let count = 0;
    for (const [day, counts] of Object.entries(subject.aggregates.days)) {
      if (ageInDays(day, subject.now) >= withinDays) continue;
      for (const [counted, number] of Object.entries(counts) as [ActivityKind, number][]) {
        const isPage = counted !== 'track' && counted !== 'identify' && counted !== 'conversion';
        if (counted === kind || (kind === 'page_view' && isPage)) count += number;
      }
    }
    return count >= atLeast;
  }
  const pattern = path === undefined ? null : patternRegExp(path);
  const matches = (eventPath: string | null, eventName: string | null) =>
    (pattern === null || (eventPath !== null && pattern.test(eventPath))) && (name === undefined || eventName === name);
  return subject.countEvents(test.events, matches) >= atLeast;
}

function test(subject: SegmentSubject, condition: Condition): boolean {
  if ('all' in condition || 'any' in condition) return evaluateRule(condition, subject);
  if ('field' in condition) return testField(subject, condition);
  return testEvents(subject, condition);
}

export function evaluateRule(rule: SegmentRule, subject: SegmentSubject): boolean {
  return 'all' in rule ? rule.all.every((condition) => test(subject, condition)) : rule.any.some((condition) => test(subject, condition));
}

/** Whether a rule asks about events: its members must be looked at again as time passes. */
export function hasEventTests(rule: SegmentRule): boolean {
  const list = 'all' in rule ? rule.all : rule.any;
  return list.some((condition) => ('all' in condition || 'any' in condition ? hasEventTests(condition) : 'events' in condition));
}
