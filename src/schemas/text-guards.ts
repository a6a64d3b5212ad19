/**
 * Checks that both stores need before any text reaches them (CONTRACT C3.8):
 * no U+0000 and no lone surrogates anywhere (PostgreSQL rejects the first in
 * text and jsonb, and neither store can round-trip the second), and JSON
 * objects nested at most 32 levels.
 */

export const MAX_JSON_DEPTH = 32;

/**
 * The most one JSON field of a stored object (a lead's properties or
 * summary, an identity's traits, …) may take, as compact JSON in UTF-8
 * (issue 9): it bounds every stored object, so a page of 100 leads stays a
 * few MiB instead of the 90 MB that 1 MiB bodies allowed.
 */
export const MAX_JSON_FIELD_BYTES = 32 * 1024;

declare global {
  interface String {
    isWellFormed(): boolean;
  }
}

/** true when the string can be stored as-is by both stores */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

export type JsonProblem = 'text' | 'depth' | 'size';

/**
 * Walks a parsed JSON value; reports the first problem found, or null.
 * `depth` is the nesting level of `value` itself (an object field's value is 1).
 */
export function findJsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH, depth = 1): JsonProblem | null {
  if (typeof value === 'string') return isStorableText(value) ? null : 'text';
  if (value === null || typeof value !== 'object') return null;
  if (depth > maxDepth) return 'depth';
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = findJsonProblem(item, maxDepth, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }
  for (const key in value) {
    if (!isStorableText(key)) return 'text';
    const problem = findJsonProblem((value as Record<string, unknown>)[key], maxDepth, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

/** A body field or import field: findJsonProblem, and an object or array at most MAX_JSON_FIELD_BYTES. */
export function findFieldProblem(value: unknown): JsonProblem | null {
  const problem = findJsonProblem(value);
  if (problem !== null || value === null || typeof value !== 'object') return problem;
  return Buffer.byteLength(JSON.stringify(value)) > MAX_JSON_FIELD_BYTES ? 'size' : null;
}

export function describeJsonProblem(problem: JsonProblem): string {
  if (problem === 'size') return `must be at most ${MAX_JSON_FIELD_BYTES} bytes as JSON (32 KiB)`;
  return problem === 'depth'
    ? `must not nest objects or arrays deeper than ${MAX_JSON_DEPTH} levels`
    : 'must not contain U+0000 or unpaired surrogate characters';
}
