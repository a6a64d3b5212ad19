/**
 * Checks a segment rule against its JSON Schema (rule.ts, compiled once with
 * the API's Ajv settings) and the limits the schema cannot express; answers
 * the problems, empty when the rule is valid (CONTRACT C6.4: an invalid
 * rule is a 400).
 */
import { createAjv, type ValidateFunction } from '../../schemas/validator.js';
import { ruleProblems, SegmentRuleSchema, type SegmentRule } from './rule.js';

let validate: ValidateFunction | undefined;

export function validateRule(rule: unknown): string[] {
  validate ??= createAjv(false).compile(SegmentRuleSchema);
  if (!validate(rule)) {
    const errors = validate.errors ?? [];
    // a union reports every branch; the deepest paths say most about what is wrong
    const deepest = Math.max(...errors.map((error) => error.instancePath.length));
    const problems = errors
      .filter((error) => error.instancePath.length === deepest)
      .map((error) => `rule${error.instancePath.replace(/\//g, '.')} ${error.message ?? 'is invalid'}`);
    return [...new Set(problems)].slice(0, 10);
  }
  return ruleProblems(rule as SegmentRule);
}
