/**
 * Which driver errors mean "the store cannot be reached right now" rather
 * than "this query is wrong": those answer 503 and the process stays up.
 */

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
/**
 * PostgreSQL SQLSTATEs: connection exceptions (08), operator intervention
 * (57P), too many connections (53300), a statement cancelled by
 * statement_timeout (57014) and a session ended by
 * idle_in_transaction_session_timeout (25P03).
 */
const POSTGRES_UNAVAILABLE = /^(08|57P0[1-3]|53300|57014|25P03)/;
const SQLITE_BUSY = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED']);
const DRIVER_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Query read timeout|Connection terminated unexpectedly/i;

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

/** PostgreSQL SQLSTATEs: disk full (53100), I/O error (58030). */
const POSTGRES_STORAGE = new Set(['53100', '58030']);

/**
 * A full disk or an I/O error of the store (SQLITE_FULL, SQLITE_IOERR_*,
 * PostgreSQL's disk_full and io_error): answered 507 with Retry-After, and
 * /readyz reports that writes fail (issue 9).
 */
export function isStorageFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return false;
  return code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR') || POSTGRES_STORAGE.has(code);
}
