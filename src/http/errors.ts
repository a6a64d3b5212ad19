/**
 * Errors as the API answers them (CONTRACT C3.5): `{error, message, details?}`
 * with the contract's codes. Anything raised below the HTTP layer is turned
 * into one of these; nothing else ever reaches a client.
 */
import { withoutStack, type ErrorCode, type ErrorDetails } from '../services/errors.js';

export type HttpErrorCode =
  | ErrorCode
  | 'unauthorized'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'service_unavailable'
  | 'request_timeout'
  | 'request_header_fields_too_large'
  | 'insufficient_storage';

export const STATUS_OF: Record<HttpErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  service_unavailable: 503,
  // not in C3.5's list (issue 9): answers of the HTTP server itself and of a full disk, README "Operations"
  request_timeout: 408,
  request_header_fields_too_large: 431,
  insufficient_storage: 507,
};

export interface ErrorBody {
  error: HttpErrorCode;
  message: string;
  details?: ErrorDetails;
}

/**
 * An answer, not a fault: no stack trace is captured (see withoutStack);
 * the handler logs the stack of the unexpected error behind a 500 instead.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly statusCode: number;

  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers: Record<string, string> = {},
  ) {
    const restore = withoutStack();
    super(message);
    restore();
    this.statusCode = STATUS_OF[code];
  }

  body(): ErrorBody {
    return this.details === undefined
      ? { error: this.code, message: this.message }
      : { error: this.code, message: this.message, details: this.details };
  }
}

export const unauthorized = () =>
  new HttpError('unauthorized', 'Invalid or missing API key', undefined, { 'www-authenticate': 'Bearer' });

export const internalError = () => new HttpError('internal_error', 'Internal server error');

export const serviceUnavailable = () =>
  new HttpError('service_unavailable', 'The database is unreachable; try again shortly', undefined, {
    'retry-after': '5',
  });

/** 507 (issue 9): the store cannot write (a full disk, I/O errors); reads go on. */
export const insufficientStorage = () =>
  new HttpError('insufficient_storage', 'The database cannot write right now (its disk is full or failing); try again later', undefined, {
    'retry-after': '30',
  });

/** 415 for a body of another media type: PATCH also takes JSON Merge Patch. */
export function unsupportedMediaType(method: string): HttpError {
  const accepted = method === 'PATCH' ? 'application/json or application/merge-patch+json' : 'application/json';
  return new HttpError('unsupported_media_type', `Content-Type must be ${accepted}`, { accepted });
}

/** A 400 naming each offending body field or query parameter. */
export function invalidRequest(
  where: 'fields' | 'parameters',
  problems: Record<string, string>,
): HttpError {
  const entries = Object.entries(problems);
  const [name, reason] = entries[0] ?? ['request', 'is invalid'];
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more)` : '';
  const label = where === 'fields' ? name : `query parameter ${name}`;
  return new HttpError('invalid_request', `${label} ${reason}${more}`, { [where]: problems });
}

/**
 * A 400 about the request as a whole (C3.5 keeps one place for offending
 * inputs): the body under details.fields as `body`, the URL under
 * details.parameters as `url`.
 */
export function invalidPart(part: 'body' | 'url', reason: string): HttpError {
  return new HttpError('invalid_request', reason, part === 'body' ? { fields: { body: reason } } : { parameters: { url: reason } });
}

/** A 400 about a request header, named under details.parameters (a header is a parameter in OpenAPI's terms). */
export function invalidHeader(header: string, reason: string): HttpError {
  return new HttpError('invalid_request', `${header} ${reason}`, { parameters: { [header]: reason } });
}

export const invalidBody = (reason: string) => invalidPart('body', reason);
