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
  params: Record<string, unknown>;
  message?: string;
}

function describe(error: SchemaError, readOnly: readonly string[]): [string, string] {
  const { params } = error;
  const path = error.instancePath.split('/').slice(1);
  const field = path.join('.');
  switch (error.keyword) {
    case 'additionalProperties': {
      const name = [...path, String(params.additionalProperty)].join('.');
      return [name, readOnly.includes(name) ? 'cannot be set by this request' : 'is not a known field'];
    }
    case 'type':
      return [field, `must be ${typeName(params.type)}`];
    case 'maxLength':
      return [field, `must be at most ${String(params.limit)} characters`];
    case 'minimum':
      return [field, `must be at least ${String(params.limit)}`];
    case 'maximum':
      return [field, `must be at most ${String(params.limit)}`];
    case 'format':
    case 'pattern': {
      const format = String(params.format ?? '');
      if (format === 'email') return [field, 'must be a valid email address'];
      if (format === INSTANT_FORMAT) return [field, 'must be an ISO 8601 date or date-time'];
      if (format === 'uuid' || /\[0-9a-fA-F\]\{8\}/.test(String(params.pattern ?? ''))) return [field, 'must be a UUID'];
      return [field, `must match ${String(params.pattern ?? format)}`];
    }
    case 'required':
      return [[...path, String(params.missingProperty)].join('.'), 'is required'];
    default:
      return [field, error.message ?? 'is invalid'];
  }
}

/** The first problem of each field or parameter, keyed by its name ("body" for the whole). */
export function describeErrors(errors: readonly SchemaError[], readOnly: readonly string[] = []): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const error of errors) {
    const [name, reason] = describe(error, readOnly);
    const key = name === '' ? 'body' : name;
    if (!(key in problems)) problems[key] = reason;
  }
  return problems;
}
