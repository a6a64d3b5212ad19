/**
 * How a JSON field changes in an update (CONTRACT C4.2): replaced whole, or
 * merged by RFC 7396 inside the UPDATE itself (Codec.mergePatch), so two
 * concurrent merge patches of different keys both survive.
 */
import type { JsonObject } from '../schemas/json.js';

export type JsonChange<T extends JsonObject | null = JsonObject> =
  | { mode: 'replace'; value: T }
  | { mode: 'merge'; patch: JsonObject };
