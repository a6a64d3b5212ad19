/**
 * Typed errors: every failure of a call is a LeadlightError, so a caller can
 * branch on `code` (the API's machine-readable error code, CONTRACT C3.5) and
 * quote `requestId` (the server's X-Request-Id) when reporting a problem. A
 * call that never got an answer, after its retries, is a
 * LeadlightConnectionError (status 0).
 */

/** The error codes the API answers with (others may be added; the type stays open). */
export type LeadlightErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'idempotency_key_in_use'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limit_exceeded'
  | 'internal_error'
  | 'service_unavailable'
  | 'connection_error'
  | (string & {});

export const REQUEST_ID_HEADER = 'x-request-id';

interface ErrorBody {
  error?: unknown;
  message?: unknown;
  details?: unknown;
}

export class LeadlightError extends Error {
  override name = 'LeadlightError';
  /** the API's error code, e.g. `not_found` */
  readonly code: LeadlightErrorCode;
  /** the HTTP status (0 when no answer came) */
  readonly status: number;
  /** what the API said about the error, e.g. the invalid fields of a 400 */
  readonly details: Record<string, unknown> | undefined;
  /** the X-Request-Id of the answer, to quote when reporting a problem */
  readonly requestId: string | undefined;

  constructor(
    init: { code: LeadlightErrorCode; message: string; status: number; details?: Record<string, unknown>; requestId?: string },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.requestId = init.requestId;
  }

  /** The error an answer carries: its `{error, message, details}` body, or its status when the body is not of that shape. */
  static fromResponse(response: Response, body: unknown): LeadlightError {
    const fields = (body !== null && typeof body === 'object' ? body : {}) as ErrorBody;
    const requestId = response.headers.get(REQUEST_ID_HEADER) ?? undefined;
    const details =
      fields.details !== null && typeof fields.details === 'object' && !Array.isArray(fields.details)
        ? (fields.details as Record<string, unknown>)
        : undefined;
    return new LeadlightError({
      code: typeof fields.error === 'string' ? fields.error : `http_${response.status}`,
      message:
        typeof fields.message === 'string'
          ? fields.message
          : `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
      status: response.status,
      details,
      requestId,
    });
  }
}

/** No answer came (connection refused or dropped, timeout), even after the retries. */
export class LeadlightConnectionError extends LeadlightError {
  override name = 'LeadlightConnectionError';

  constructor(message: string, cause: unknown) {
    super({ code: 'connection_error', message, status: 0 }, { cause });
  }
}
