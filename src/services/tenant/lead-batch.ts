/**
 * The operations of a lead batch (CONTRACT C11.4), checked before anything
 * runs: 1 to 100 of them, each a create with a create body or an update with
 * an id and an update body, each body judged by the very schema of the
 * single write. A problem is a 400 naming the operation
 * (`operations[3].body.code`), so nothing is written.
 */
import { createAjv, describeErrors, type SchemaError, type ValidateFunction } from '../../schemas/validator.js';
import { isUuid } from '../../schemas/fields.js';
import { LeadCreateInput, LeadUpdateInput } from '../../schemas/inputs.js';
import type { Lead } from '../../schemas/resources.js';
import { InvalidRequestError } from '../errors.js';
import { canonicalId } from '../ids.js';
import type { OperationPaths } from './batch-errors.js';

export const MAX_BATCH = 100;

/** One operation of a batch, its body checked. */
export type LeadOperation = { op: 'create'; body: LeadCreateInput } | { op: 'update'; id: string; body: LeadUpdateInput };

export interface LeadOutcome {
  outcome: 'created' | 'updated';
  data: Lead;
}

export const operationPaths = (index: number): OperationPaths => ({ id: `operations[${index}].id`, body: `operations[${index}].body` });

let validators: { create: ValidateFunction; update: ValidateFunction } | undefined;

function validatorsOf() {
  if (validators === undefined) {
    const ajv = createAjv(false);
    validators = { create: ajv.compile(LeadCreateInput), update: ajv.compile(LeadUpdateInput) };
  }
  return validators;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Problems of the batch as a whole (the list) or of the first operation that has any. */
function problemsOf(body: unknown): Record<string, string> | LeadOperation[] {
  if (!isObject(body)) return { body: 'must be a JSON object' };
  const extra = Object.keys(body).find((name) => name !== 'operations');
  if (extra !== undefined) return { [extra]: 'is not a known field' };
  const operations = body.operations;
  if (!Array.isArray(operations)) return { operations: operations === undefined ? 'is required' : 'must be an array' };
  if (operations.length < 1) return { operations: 'must hold at least 1 operation' };
  if (operations.length > MAX_BATCH) return { operations: `must hold at most ${MAX_BATCH} operations` };
  const checked: LeadOperation[] = [];
  for (const [index, operation] of operations.entries()) {
    const problems = operationProblems(index, operation);
    if (!Array.isArray(problems)) return problems;
    checked.push(problems[0]!);
  }
  return checked;
}

function operationProblems(index: number, operation: unknown): Record<string, string> | [LeadOperation] {
  const at = `operations[${index}]`;
  if (!isObject(operation)) return { [at]: 'must be a JSON object' };
  const { op, id, body } = operation;
  const allowed = op === 'update' ? ['op', 'id', 'body'] : ['op', 'body'];
  const extra = Object.keys(operation).find((name) => !allowed.includes(name));
  if (op !== 'create' && op !== 'update') return { [`${at}.op`]: 'must be create or update' };
  if (extra !== undefined) return { [`${at}.${extra}`]: op === 'create' && extra === 'id' ? 'is not taken by a create' : 'is not a known field' };
  if (op === 'update' && (typeof id !== 'string' || !isUuid(id))) return { [`${at}.id`]: id === undefined ? 'is required' : 'must be a UUID' };
  if (!isObject(body)) return { [`${at}.body`]: body === undefined ? 'is required' : 'must be a JSON object' };
  const validate = validatorsOf()[op];
  if (!validate(body)) {
    const problems = describeErrors((validate.errors ?? []) as SchemaError[]);
    return Object.fromEntries(Object.entries(problems).map(([name, reason]) => [name === 'body' ? `${at}.body` : `${at}.body.${name}`, reason]));
  }
  return op === 'create'
    ? [{ op, body: body as LeadCreateInput }]
    : [{ op, id: canonicalId(id as string), body: body as LeadUpdateInput }];
}

/** The operations of a batch body, or the 400 naming what is wrong. */
export function parseLeadBatch(body: unknown): LeadOperation[] {
  const result = problemsOf(body);
  if (Array.isArray(result)) return result;
  const [name, reason] = Object.entries(result)[0] ?? ['body', 'is invalid'];
  throw new InvalidRequestError(`${name} ${reason}`, { fields: result });
}
