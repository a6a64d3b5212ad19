/**
 * The rule of a segment (CONTRACT C6.4; docs/intelligence.md, "Segments"):
 * all/any of field tests, event tests and nested rules, as a JSON Schema
 * (TypeBox), so that an API body with a bad rule is a 400 naming the problem.
 * Limits on depth and size are checked after the schema (ruleProblems).
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EVENT_KINDS, MAX_AT_LEAST, MAX_RULE_CONDITIONS, MAX_RULE_DEPTH, MAX_WITHIN_DAYS, NUMBER_OPERATORS, RULE_FIELDS, TEXT_OPERATORS } from './grammar.js';

export { MAX_RULE_CONDITIONS, MAX_RULE_DEPTH, NUMBER_OPERATORS, RULE_FIELDS, TEXT_OPERATORS, EVENT_KINDS } from './grammar.js';

const Scalar = Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]);

export const FieldTestSchema = Type.Object(
  {
    field: Type.Union([...RULE_FIELDS.map((field) => Type.Literal(field)), Type.String({ pattern: '^trait\\.[^\\s]{1,100}$' })], {
      description: 'an identity field, trait.<key>, or company.<field>',
    }),
    op: Type.Union([
      ...[...TEXT_OPERATORS, ...NUMBER_OPERATORS].map((op) => Type.Literal(op)),
      Type.Literal('in'),
      Type.Literal('exists'),
    ]),
    value: Type.Union([Scalar, Type.Array(Scalar, { maxItems: 100 })]),
  },
  { additionalProperties: false },
);

export const EventTestSchema = Type.Object(
  {
    events: Type.Object(
      {
        kind: Type.Union(EVENT_KINDS.map((kind) => Type.Literal(kind))),
        path: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'page pattern, * for any run of characters' })),
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        at_least: Type.Integer({ minimum: 1, maximum: MAX_AT_LEAST }),
        within_days: Type.Integer({ minimum: 1, maximum: MAX_WITHIN_DAYS }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export type FieldTest = Static<typeof FieldTestSchema>;
export type EventTest = Static<typeof EventTestSchema>;
export type Condition = FieldTest | EventTest | SegmentRule;
export type SegmentRule = { all: Condition[] } | { any: Condition[] };

/** The rule grammar as a JSON Schema: conditions nest through $ref to the rule itself. */
export const SegmentRuleSchema: TSchema = Type.Recursive(
  (Self) => {
    const conditions = Type.Array(Type.Union([FieldTestSchema, EventTestSchema, Self]), {
      minItems: 1,
      maxItems: MAX_RULE_CONDITIONS,
    });
    return Type.Union([
      Type.Object({ all: conditions }, { additionalProperties: false }),
      Type.Object({ any: conditions }, { additionalProperties: false }),
    ]);
  },
  { $id: 'SegmentRule', description: 'all/any of field tests, event tests and nested rules (docs/intelligence.md)' },
);

/** Problems the schema cannot see: depth, total size, operators that do not fit their value. */
export function ruleProblems(rule: SegmentRule): string[] {
  const problems: string[] = [];
  let conditions = 0;
  const visit = (node: SegmentRule, depth: number, path: string) => {
    if (depth > MAX_RULE_DEPTH) {
      problems.push(`${path} nests deeper than ${MAX_RULE_DEPTH} levels`);
      return;
    }
    const [key, list] = 'all' in node ? ['all', node.all] : ['any', node.any];
    list.forEach((condition, index) => {
      const at = `${path}.${key}[${index}]`;
      conditions += 1;
      if ('all' in condition || 'any' in condition) visit(condition, depth + 1, at);
      else if ('field' in condition) {
        const { op, value } = condition;
        if (op === 'in' && !Array.isArray(value)) problems.push(`${at}.value must be an array for "in"`);
        if (op !== 'in' && Array.isArray(value)) problems.push(`${at}.value must not be an array for "${op}"`);
        if (op === 'exists' && typeof value !== 'boolean') problems.push(`${at}.value must be true or false for "exists"`);
        if ((NUMBER_OPERATORS as readonly string[]).includes(op) && typeof value !== 'number') {
          problems.push(`${at}.value must be a number for "${op}"`);
        }
      }
    });
  };
  visit(rule, 1, 'rule');
  if (conditions > MAX_RULE_CONDITIONS) problems.push(`rule has ${conditions} conditions; at most ${MAX_RULE_CONDITIONS}`);
  return problems;
}
