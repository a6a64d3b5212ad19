/**
 * Checks a segment rule against its JSON Schema (rule.ts, compiled once with
 * the API's Ajv settings) and the limits the schema cannot express; answers
 * the problems by the place in the body they concern (`rule.all[0].op`),
 * empty when the rule is valid (CONTRACT C6.4: an invalid rule is a 400;
 * C3.5: the place under details.fields, the problem in plain words).
 */
import { createAjv, describeErrors, type SchemaError, type ValidateFunction } from '../../schemas/validator.js';
import { EventTestSchema, FieldTestSchema, MAX_RULE_CONDITIONS, MAX_RULE_DEPTH, ruleProblems, type SegmentRule } from './rule.js';

let validate: ValidateFunction | undefined;

/**
 * SegmentRuleSchema with its recursion written out to the deepest level a
 * rule may reach (below it any object, which ruleProblems refuses by depth).
 * The same grammar, but every failure's schema path leads from the root, so
 * the union of a condition's forms can be told apart and the form a
 * condition came closest to reported alone (C3.5).
 */
function unrolledRule(depth: number): object {
  if (depth > MAX_RULE_DEPTH) return { type: 'object' };
  const conditions = {
    type: 'array',
    items: { anyOf: [FieldTestSchema, EventTestSchema, unrolledRule(depth + 1)] },
    minItems: 1,
    maxItems: MAX_RULE_CONDITIONS,
  };
  return {
    anyOf: ['all', 'any'].map((key) => ({ type: 'object', properties: { [key]: conditions }, required: [key], additionalProperties: false })),
  };
}

export function validateRule(rule: unknown): Record<string, string> {
  validate ??= createAjv(false).compile(unrolledRule(1));
  const problems: Record<string, string> = {};
  if (!validate(rule)) {
    for (const [field, reason] of Object.entries(describeErrors((validate.errors ?? []) as SchemaError[]))) {
      problems[field === 'body' ? 'rule' : field.startsWith('[') ? `rule${field}` : `rule.${field}`] = reason;
    }
    return problems;
  }
  // ruleProblems says "<place> <problem>", the place being free of spaces
  for (const problem of ruleProblems(rule as SegmentRule)) {
    const space = problem.indexOf(' ');
    problems[problem.slice(0, space)] ??= problem.slice(space + 1);
  }
  return problems;
}
