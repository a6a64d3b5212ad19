/**
 * The segment builder's model (dashboard/src/segment-draft.ts, C9.6): every
 * rule the controls can show comes back from them unchanged, and a rule they
 * cannot show exactly is refused with the reason the page shows beside the
 * JSON editor. The rules written are valid for the server's own validator.
 */
import { describe, expect, it } from 'vitest';
import { validateRule } from '../../src/intelligence/segments/validate-rule.js';
import { newEvents, newField, newGroup, ruleOf, rowsOf, type GroupRow } from '../../dashboard/src/segment-draft.js';

describe('the segment builder model (C9.6)', () => {
  it('a rule of every kind of condition the controls offer comes back from the controls unchanged, and is valid', () => {
    const rule = {
      all: [
        { field: 'trait.plan', op: 'eq', value: 'pro' },
        { field: 'trait.seats', op: 'gte', value: 50 },
        { field: 'company.domain', op: 'ends_with', value: '.io' },
        { field: 'country', op: 'in', value: ['NO', 'SE'] },
        { field: 'is_favorite', op: 'eq', value: false },
        { field: 'score', op: 'gt', value: 59 },
        { field: 'email', op: 'exists', value: true },
        { field: 'company.main_industry', op: 'exists', value: false },
        {
          any: [
            { events: { kind: 'pricing', at_least: 2, within_days: 7 } },
            { events: { kind: 'track', name: 'signup', path: '/app*', at_least: 1, within_days: 30 } },
            { all: [{ field: 'status', op: 'neq', value: 'customer' }] },
          ],
        },
      ],
    };
    const { group, reason } = rowsOf(rule);
    expect(reason).toBeUndefined();
    expect(ruleOf(group!)).toEqual({ rule });
    expect(validateRule(rule)).toEqual({});
  });

  it('a rule the controls would write differently is refused, naming the condition and why', () => {
    expect(rowsOf({ all: [{ field: 'trait.plan', op: 'eq', value: 5 }] }).reason).toBe('condition 1 compares trait.plan with 5, a value the builder would write differently');
    expect(rowsOf({ any: [{ field: 'country', op: 'in', value: ['NO', 'A, B'] }] }).reason).toMatch(/^condition 1 compares country/);
    expect(rowsOf({ all: [{ field: 'email', op: 'gt', value: 3 }] }).reason).toBe('condition 1 uses "gt" on email, which the builder does not offer there');
    const deep = (depth: number): unknown => (depth === 0 ? { field: 'name', op: 'eq', value: 'x' } : { all: [deep(depth - 1)] });
    expect(rowsOf(deep(5)).group).toBeDefined();
    expect(rowsOf(deep(6)).reason).toBe('groups nest deeper than 5 levels');
  });

  it('an unfinished draft names what is missing instead of a rule', () => {
    const trait = newField();
    expect(ruleOf(newGroup('all', [trait]))).toEqual({ problem: 'Trait: choose or type the trait’s name' });
    expect(ruleOf(newGroup('all', [{ ...trait, traitKey: 'plan' }]))).toEqual({ problem: 'Trait: choose or type a value' });
    expect(ruleOf(newGroup('any', [{ ...newEvents(), withinDays: '31' }])).problem).toMatch(/^Events: "in the last … days" is a whole number from 1 to 30/);
    expect(ruleOf(newGroup('any', [{ ...newEvents(), withinDays: '30' }])).rule).toEqual({ any: [{ events: { kind: 'page_view', at_least: 1, within_days: 30 } }] });
    expect(ruleOf({ type: 'group', key: 0, match: 'all', conditions: [] } satisfies GroupRow)).toEqual({ problem: 'Add at least one condition to every group' });
  });
});
