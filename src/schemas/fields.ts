/**
 * Field types shared by the resource schemas, the HTTP request schemas and the
 * import validators, so that one definition decides what a UUID, a timestamp or
 * a JSONB field is everywhere.
 */
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import type { JsonField, JsonObject } from './json.js';

export const LIMITS = {
  code: 255,
  source: 255,
  name: 255,
  email: 320,
  /** other free text fields (descriptions, labels, addresses) */
  text: 2000,
} as const;

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID_REGEX = new RegExp(UUID_PATTERN);

export function isUuid(value: string): boolean {
  return UUID_REGEX.test(value);
}

export const Uuid = (options: { description?: string } = {}) =>
  Type.String({ format: 'uuid', pattern: UUID_PATTERN, ...options });

/** A timestamp as returned: YYYY-MM-DDTHH:mm:ss.sssZ */
export const Timestamp = (options: { description?: string } = {}) =>
  Type.String({ format: 'date-time', ...options });

/** A free-form JSON object (a JSONB field). */
export const JsonObjectSchema = (options: { description?: string } = {}) =>
  Type.Unsafe<JsonObject>({ type: 'object', additionalProperties: true, ...options });

/** A JSON object field of a response, which may hold its stored text (StoredJson). */
export const JsonFieldSchema = (options: { description?: string } = {}) =>
  Type.Unsafe<JsonField>({ type: 'object', additionalProperties: true, ...options });

/**
 * `schema` or null, written as a type array ({"type": ["string", "null"]}) so
 * that OpenAPI 3.1 readers and the serializer both see one simple schema.
 */
export function Nullable<T extends TSchema>(schema: T): TUnsafe<Static<T> | null> {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** A reference to a schema registered by $id (it appears once in the OpenAPI document). */
export function Ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  if (schema.$id === undefined) throw new Error('Ref needs a schema with an $id');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}
