/**
 * Which driver errors mean "the store cannot be reached right now" rather
 * than "this query is wrong": those answer 503 and the process stays up.
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/** PostgreSQL SQLSTATEs: connection exceptions (08) and operator intervention (57P). */
const POSTGRES_UNAVAILABLE = /^(08|57P0[1-3]|53300)/;
const SQLITE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED']);
const DRIVER_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end/i;

export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SQLITE_BUSY.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_UNAVAILABLE.test(code)) return true;
  }
  if (error instanceof AggregateError) return error.errors.some(isStoreUnavailable);
  return DRIVER_MESSAGES.test(error.message);
}
