/**
 * The identities of an identity batch (CONTRACT C11.4), checked before
 * anything runs: 1 to 100 of `{email, name?, traits?}`, each judged by the
 * schema of the single create, a problem being a 400 naming it
 * (`identities[2].email`) so that nothing is written. Traits of a batch are a
 * merge patch (RFC 7396): on a new identity, its null members are dropped.
 */
import { Type } from '@sinclair/typebox';
import { createAjv, describeErrors, type SchemaError, type ValidateFunction } from '../../schemas/validator.js';
import { LIMITS } from '../../schemas/fields.js';
import { IdentityCreateInput } from '../../schemas/inputs.js';
import type { JsonObject, JsonValue } from '../../schemas/json.js';
import type { Identity } from '../../schemas/resources.js';
import { InvalidRequestError } from '../errors.js';
import type { OperationPaths } from './batch-errors.js';
import { MAX_BATCH } from './lead-batch.js';

/** One identity of a batch: its email says which identity it is. */
export const IdentityUpsertInput = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: LIMITS.email, description: 'which identity: an existing one with this email (case-insensitive) is updated, otherwise one is created' }),
    name: IdentityCreateInput.properties.name,
    traits: IdentityCreateInput.properties.traits,
  },
  { additionalProperties: false },
);

export interface IdentityUpsert {
  email: string;
  name?: string | null;
  traits?: JsonObject;
}

export interface IdentityOutcome {
  outcome: 'created' | 'updated';
  data: Identity;
}

export const upsertPaths = (index: number): OperationPaths => ({ id: `identities[${index}].email`, body: `identities[${index}]` });

let validator: ValidateFunction | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function problemsOf(body: unknown): Record<string, string> | IdentityUpsert[] {
  if (!isObject(body)) return { body: 'must be a JSON object' };
  const extra = Object.keys(body).find((name) => name !== 'identities');
  if (extra !== undefined) return { [extra]: 'is not a known field' };
  const items = body.identities;
  if (!Array.isArray(items)) return { identities: items === undefined ? 'is required' : 'must be an array' };
  if (items.length < 1) return { identities: 'must hold at least 1 identity' };
  if (items.length > MAX_BATCH) return { identities: `must hold at most ${MAX_BATCH} identities` };
  validator ??= createAjv(false).compile(IdentityUpsertInput);
  for (const [index, item] of items.entries()) {
    const at = `identities[${index}]`;
    if (!isObject(item)) return { [at]: 'must be a JSON object' };
    if (!validator(item)) {
      const problems = describeErrors((validator.errors ?? []) as SchemaError[]);
      return Object.fromEntries(Object.entries(problems).map(([name, reason]) => [name === 'body' ? at : `${at}.${name}`, reason]));
    }
  }
  return items as IdentityUpsert[];
}

/** The identities of a batch body, or the 400 naming what is wrong. */
export function parseIdentityBatch(body: unknown): IdentityUpsert[] {
  const result = problemsOf(body);
  if (Array.isArray(result)) return result;
  const [name, reason] = Object.entries(result)[0] ?? ['body', 'is invalid'];
  throw new InvalidRequestError(`${name} ${reason}`, { fields: result });
}

/** A merge patch applied to nothing (RFC 7396): the object without its null members, at every depth. */
export function withoutNulls(patch: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) continue;
    result[key] = isObject(value) ? withoutNulls(value as JsonObject) : (value as JsonValue);
  }
  return result;
}
