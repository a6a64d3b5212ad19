/**
 * The errors services raise. Each carries the contract's error code (C3.5);
 * the HTTP layer turns the code into a status, the CLI into one line on stderr.
 */

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limit_exceeded'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused';

export type ErrorDetails = Record<string, unknown>;

/**
 * Turns stack capture off until the returned function is called. Errors that
 * are answers (a 401, a 404, a 400) are created on hot paths and never
 * logged with a stack; capturing one cost a large share of answering a
 * request with a bad key (BENCHMARKS.md, "Figures behind design decisions").
 */
export function withoutStack(): () => void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/** A rule of the API was broken: answered with its code, never logged as a fault (no stack). */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    const restore = withoutStack();
    super(message);
    restore();
  }
}

/** C3.6: the message never reveals whether the id exists in another workspace. */
export class NotFoundError extends ServiceError {
  constructor(resource: 'lead' | 'identity' | 'company' | 'list' | 'user' | 'workspace' | 'key' | 'webhook' | 'company_rule' | 'alert' | 'delivery' | 'note') {
    super('not_found', NOT_FOUND_MESSAGES[resource]);
  }
}

const NOT_FOUND_MESSAGES = {
  lead: 'lead not found or does not belong to your workspace',
  identity: 'identity not found or does not belong to your workspace',
  company: 'company not found or does not belong to your workspace',
  list: 'list not found or does not belong to your workspace',
  user: 'user not found or not a member of your workspace',
  workspace: 'workspace not found',
  key: 'key not found',
  webhook: 'webhook not found or does not belong to your workspace',
  company_rule: 'company rule not found or does not belong to your workspace',
  alert: 'alert not found or does not belong to your workspace',
  delivery: 'delivery not found or does not belong to this webhook',
  note: 'note not found on this lead, or the lead does not belong to your workspace',
} as const;

/** C3.7: a body names a resource outside the caller's workspace. */
export class ForbiddenReferenceError extends ServiceError {
  constructor(field: string) {
    super('forbidden', 'access denied to requested resource', { field });
  }
}

export class InvalidRequestError extends ServiceError {
  constructor(message: string, details?: ErrorDetails) {
    super('invalid_request', message, details);
  }
}

/** C3.5: a 400 naming each offending body field under details.fields, the first in the message. */
export function invalidFields(problems: Record<string, string>): InvalidRequestError {
  const entries = Object.entries(problems);
  const [name, reason] = entries[0] ?? ['body', 'is invalid'];
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more)` : '';
  return new InvalidRequestError(`${name} ${reason}${more}`, { fields: problems });
}
