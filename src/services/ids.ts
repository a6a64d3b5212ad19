/**
 * New resource ids: UUID version 7, so ids created later sort later (the list
 * order's tie-break follows creation) and index inserts stay local.
 */
import { v7 } from 'uuid';
import { isUuid } from '../schemas/fields.js';
import { NotFoundError } from './errors.js';

export function newId(): string {
  return v7();
}

/** Ids are compared and stored lower-case. */
export function canonicalId(id: string): string {
  return id.toLowerCase();
}

/** An optional id of a body, canonical; null when absent or null. */
export function optionalId(id: string | null | undefined): string | null {
  return id === undefined || id === null ? null : canonicalId(id);
}

/**
 * The canonical form of a path id. A malformed id names nothing, so it is
 * reported exactly like an unknown one (CONTRACT C3.6).
 */
export function pathId(id: string, resource: ConstructorParameters<typeof NotFoundError>[0]): string {
  if (!isUuid(id)) throw new NotFoundError(resource);
  return canonicalId(id);
}
