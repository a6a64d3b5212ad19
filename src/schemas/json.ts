/**
 * JSON value types, shared by the HTTP layer, services, import and codec.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/**
 * A JSON field as the store holds it: its text, passed through to responses
 * without being parsed and serialized again (lead.serializer.ts), and parsed
 * only if something asks for its value (JSON.stringify does, through toJSON).
 */
export class StoredJson {
  constructor(readonly text: string) {}

  toJSON(): JsonValue {
    return JSON.parse(this.text) as JsonValue;
  }
}

/** A JSON object field on its way out: as given, or as stored. */
export type JsonField = JsonObject | StoredJson;
