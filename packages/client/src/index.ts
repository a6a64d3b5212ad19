/**
 * @leadlight/client: a typed client of the Leadlight API (README.md).
 */
export { CLIENT_VERSION, createClient } from './client.js';
export type { CallOptions, ClientOptions, EventCounts, LeadlightClient, UpdateOptions, WriteOptions } from './client.js';
export { iterateChanges } from './changes.js';
export type { ChangesOptions, ChangesPage } from './changes.js';
export { LeadlightConnectionError, LeadlightError, REQUEST_ID_HEADER } from './errors.js';
export type { LeadlightErrorCode } from './errors.js';
export { linkOf, nextLink, PagedList } from './pagination.js';
export type { Page, Pagination } from './pagination.js';
export { backoffMs, IDEMPOTENCY_KEY_HEADER, retryAfterMs, retryingFetch } from './retry.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export type * from './types.js';
