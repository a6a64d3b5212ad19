/**
 * JSON Schema validation (Ajv) shared by the HTTP layer and the import: the
 * same formats and the same strictness, so a line of an import file is judged
 * exactly like the body of a request.
 */
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { isInstant } from './instants.js';

/** Ajv and its formats load with the first validator: a CLI command that validates nothing never loads them. */
const load = createRequire(import.meta.url);

/** Instants as the API accepts them (parseInstant), by the name of their standard. */
export const INSTANT_FORMAT = 'iso-8601';

export type { ErrorObject, ValidateFunction };

export function createAjv(coerceTypes: boolean): Ajv {
  const { Ajv: AjvClass } = load('ajv') as typeof AjvModule;
  const ajv = new AjvClass({
    allErrors: true,
    coerceTypes,
    removeAdditional: false,
    useDefaults: false,
    allowUnionTypes: true,
    strict: true,
  });
  // ajv-formats is CommonJS: its module is the plugin function
  const addFormats = load('ajv-formats') as (ajv: Ajv, formats: string[]) => Ajv;
  addFormats(ajv, ['uuid', 'email', 'date-time']);
  ajv.addFormat(INSTANT_FORMAT, { type: 'string', validate: isInstant });
  return ajv;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a JSON object',
  array: 'an array',
  null: 'null',
};

function typeName(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((entry) => TYPE_NAMES[String(entry)] ?? String(entry)).join(' or ');
}

export interface SchemaError {
  keyword: string;
  instancePath: string;
  /** where in the schema the rule is (Ajv's `#/properties/x/anyOf/0/type`); used to tell the branches of a union apart */
  schemaPath?: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Patterns of our schemas, said in words (C3.5: no validator's wording reaches a client). */
const PATTERN_NAMES: Record<string, string> = {
  '^#[0-9A-Fa-f]{6}$': 'must be a color written #RRGGBB',
  '^[A-Za-z]{2}$': 'must be a two-letter country code',
  '^trait\\.[^\\s]{1,100}$': 'must be trait.<key>',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}$': 'must be a date written YYYY-MM-DD',
};

/** A field's name from its place: `traits.plan`, `identity_ids[2]`, `events[0].url`. */
export function fieldName(path: readonly string[]): string {
  let name = '';
  for (const segment of path) {
    if (/^\d+$/.test(segment)) name += `[${segment}]`;
    else name += name === '' ? segment : `.${segment}`;
  }
  return name;
}

function plural(count: unknown, one: string, many: string): string {
  return `${String(count)} ${Number(count) === 1 ? one : many}`;
}

function listOf(values: readonly unknown[]): string {
  const words = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1) ?? ''}`;
}

function patternReason(params: Record<string, unknown>): string {
  const format = String(params.format ?? '');
  if (format === 'email') return 'must be a valid email address';
  if (format === INSTANT_FORMAT) return 'must be an ISO 8601 date or date-time';
  if (format === 'date-time') return 'must be an ISO 8601 date-time';
  const pattern = String(params.pattern ?? '');
  if (format === 'uuid' || /\[0-9a-fA-F\]\{8\}/.test(pattern)) return 'must be a UUID';
  return PATTERN_NAMES[pattern] ?? 'is not in the expected form';
}

/** One problem in plain words; never the validator's own message. */
function reasonOf(error: SchemaError, readOnly: readonly string[], path: string[]): [string, string] {
  const { params } = error;
  const field = fieldName(path);
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = fieldName([...path, String(params.additionalProperty)]);
      return [name, readOnly.includes(name) ? 'cannot be set by this request' : 'is not a known field'];
    }
    case 'required':
      return [fieldName([...path, String(params.missingProperty)]), 'is required'];
    case 'type':
      return [field, `must be ${typeName(params.type)}`];
    case 'minLength':
      return [field, Number(params.limit) === 1 ? 'must not be empty' : `must be at least ${plural(params.limit, 'character', 'characters')}`];
    case 'maxLength':
      return [field, `must be at most ${plural(params.limit, 'character', 'characters')}`];
    case 'minimum':
      return [field, `must be at least ${String(params.limit)}`];
    case 'maximum':
      return [field, `must be at most ${String(params.limit)}`];
    case 'exclusiveMinimum':
      return [field, `must be greater than ${String(params.limit)}`];
    case 'exclusiveMaximum':
      return [field, `must be less than ${String(params.limit)}`];
    case 'multipleOf':
      return [field, `must be a multiple of ${String(params.multipleOf)}`];
    case 'minItems':
      return [field, `must hold at least ${plural(params.limit, 'item', 'items')}`];
    case 'maxItems':
      return [field, `must hold at most ${plural(params.limit, 'item', 'items')}`];
    case 'uniqueItems':
      return [field, 'must not hold the same item twice'];
    case 'minProperties':
      return [field, `must have at least ${plural(params.limit, 'member', 'members')}`];
    case 'maxProperties':
      return [field, `must have at most ${plural(params.limit, 'member', 'members')}`];
    case 'enum':
      return [field, `must be one of ${listOf(params.allowedValues as unknown[])}`];
    case 'const':
      return [field, `must be ${listOf([params.allowedValue])}`];
    case 'format':
    case 'pattern':
      return [field, patternReason(params)];
    default:
      return [field, 'is not valid here'];
  }
}

const UNION_KEYWORDS = new Set(['anyOf', 'oneOf']);

/** The branch of a union a failure belongs to: `#/…/anyOf/2/…` under the union at `#/…/anyOf` gives 2. */
function branchOf(error: SchemaError, union: SchemaError): string | undefined {
  const path = error.schemaPath ?? '';
  const unionPath = union.schemaPath ?? '';
  const within = error.instancePath === union.instancePath || error.instancePath.startsWith(`${union.instancePath}/`);
  if (!within || !path.startsWith(`${unionPath}/`)) return undefined;
  return path.slice(unionPath.length + 1).split('/')[0];
}

/**
 * A union (anyOf, oneOf) reports every branch's failures. Keeps those of the
 * branch the value came closest to (the fewest failures at the value itself,
 * then the fewest in all); when every branch refuses the value's very type or
 * value, says the alternatives in one problem. Inner unions are settled
 * first, so an outer one weighs each branch by its best form.
 */
function pickBranches(errors: readonly SchemaError[]): SchemaError[] {
  let remaining = [...errors];
  const unions = errors
    .filter((error) => UNION_KEYWORDS.has(error.keyword) && error.schemaPath !== undefined)
    .sort((a, b) => (b.schemaPath ?? '').length - (a.schemaPath ?? '').length || b.instancePath.length - a.instancePath.length);
  for (const union of unions) {
    const branches = new Map<string, SchemaError[]>();
    for (const error of remaining) {
      const branch = branchOf(error, union);
      if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const inUnion = new Set([...branches.values()].flat());
    const shallow = (list: SchemaError[]) => list.filter((error) => error.instancePath === union.instancePath);
    const refusals = (list: SchemaError[]) => shallow(list).filter((error) => REFUSES_VALUE.has(error.keyword));
    const everyBranchRefuses = [...branches.values()].every((list) => refusals(list).length > 0);
    if (branches.size === 0 || everyBranchRefuses) {
      const alternatives = [...new Set([...branches.values()].flatMap((list) => refusals(list).flatMap(alternativesOf)))];
      const at = remaining.findIndex((error) => inUnion.has(error) || error === union);
      const settled: SchemaError = { keyword: 'union', instancePath: union.instancePath, schemaPath: union.schemaPath, params: { alternatives } };
      remaining = [...remaining.slice(0, at), settled, ...remaining.slice(at).filter((error) => !inUnion.has(error) && error !== union)];
      continue;
    }
    const [, best] = [...branches.entries()].sort(
      ([, a], [, b]) => shallow(a).length - shallow(b).length || a.length - b.length,
    )[0] as [string, SchemaError[]];
    remaining = remaining.filter((error) => error !== union && (!inUnion.has(error) || best.includes(error)));
  }
  return remaining;
}

/** Failures that refuse a value for what it is (its type, or not one of the values or forms allowed). */
const REFUSES_VALUE = new Set(['type', 'const', 'enum', 'pattern', 'format', 'union']);

/** What one branch of a union would have taken: "a string", "email", "a UUID". */
function alternativesOf(error: SchemaError): string[] {
  if (error.keyword === 'union') return error.params.alternatives as string[];
  if (error.keyword === 'type') return [typeName(error.params.type)];
  if (error.keyword === 'const') return [listOf([error.params.allowedValue])];
  if (error.keyword === 'enum') return (error.params.allowedValues as unknown[]).map((value) => listOf([value]));
  return [patternReason(error.params).replace(/^must be /, '')];
}

function unionReason(alternatives: readonly string[]): string {
  if (alternatives.length === 0) return 'is not valid here';
  return alternatives.length > 2 && alternatives.every((entry) => !entry.includes(' ')) ? `must be one of ${listOf(alternatives)}` : `must be ${listOf(alternatives)}`;
}

/**
 * The first problem of each field or parameter, keyed by its name ("body" for
 * the whole), in words a person understands (CONTRACT C3.5).
 */
export function describeErrors(errors: readonly SchemaError[], readOnly: readonly string[] = []): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const error of pickBranches(errors)) {
    // `if` repeats what the failures of its `then` or `else` already say
    if (error.keyword === 'if') continue;
    const path = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    const [name, reason] = error.keyword === 'union' ? [fieldName(path), unionReason(error.params.alternatives as string[])] : reasonOf(error, readOnly, path);
    const key = name === '' ? 'body' : name;
    if (!(key in problems)) problems[key] = reason;
  }
  return problems;
}
