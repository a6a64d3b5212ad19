/**
 * The validator compiler of the routes. Bodies are validated strictly (no
 * type coercion, unknown fields rejected, every problem reported); query
 * strings are coerced from text to the declared types.
 */
import { createAjv } from '../schemas/validator.js';

export { INSTANT_FORMAT } from '../schemas/validator.js';

const bodyAjv = createAjv(false);
const queryAjv = createAjv(true);

export function compileValidator({ schema, httpPart }: { schema: object; httpPart?: string }) {
  return (httpPart === 'body' ? bodyAjv : queryAjv).compile(schema);
}
