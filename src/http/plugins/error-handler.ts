/**
 * The one place where anything that went wrong becomes a response in the
 * contract's shape (CONTRACT C3.5): service errors, validation errors,
 * framework errors (media type, body size), unknown paths (404) and known
 * paths with another method (405 with Allow). Unexpected errors are logged
 * with their stack and answered with a bare 500.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isStorageFailure, isStoreUnavailable } from '../../db/errors.js';
import { ServiceError } from '../../services/errors.js';
import {
  HttpError,
  STATUS_OF,
  insufficientStorage,
  internalError,
  invalidBody,
  invalidPart,
  invalidRequest,
  serviceUnavailable,
  unsupportedMediaType,
} from '../errors.js';
import { describeErrors, type SchemaError } from '../../schemas/validator.js';

const FRAMEWORK_ERRORS: Record<string, (request: FastifyRequest) => HttpError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => unsupportedMediaType(request.method),
  FST_ERR_CTP_INVALID_CONTENT_TYPE: (request) => unsupportedMediaType(request.method),
  FST_ERR_CTP_BODY_TOO_LARGE: () =>
    new HttpError('payload_too_large', 'request body is larger than 1 MiB', { max_bytes: 1_048_576 }),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => invalidBody('Content-Length does not match the body'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => invalidBody('request body is empty'),
  FST_ERR_BAD_URL: () => invalidPart('url', 'the request URL is malformed'),
};

export function toHttpError(error: unknown, request: FastifyRequest): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ServiceError) {
    const retryAfter = error.details?.retry_after;
    return new HttpError(error.code, error.message, error.details, typeof retryAfter === 'number' ? { 'retry-after': String(retryAfter) } : {});
  }
  const fastifyError = error as Partial<FastifyError>;
  if (Array.isArray(fastifyError.validation)) {
    const readOnly = request.routeOptions.config.readOnlyFields ?? [];
    const where = fastifyError.validationContext === 'body' ? 'fields' : 'parameters';
    return invalidRequest(where, describeErrors(fastifyError.validation as SchemaError[], readOnly));
  }
  const known = fastifyError.code === undefined ? undefined : FRAMEWORK_ERRORS[fastifyError.code];
  if (known !== undefined) return known(request);
  if (isStorageFailure(error)) return insufficientStorage();
  if (isStoreUnavailable(error)) return serviceUnavailable();
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = (Object.entries(STATUS_OF).find(([, value]) => value === status)?.[0] ?? 'invalid_request') as
      | keyof typeof STATUS_OF;
    return new HttpError(code, 'the request could not be processed');
  }
  return internalError();
}

export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  reply.code(error.statusCode).headers(error.headers);
  return reply.send(error.body());
}

export interface ErrorHandlerOptions {
  /** the methods each route path answers, for 405 and Allow */
  allowedMethods: (path: string) => string[];
  /** tried first for an unknown path: the dashboard's client-side routes answer its page */
  fallback?: (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;
}

export const errorHandler = fp<ErrorHandlerOptions>(
  async (app, { allowedMethods, fallback }) => {
    app.setErrorHandler((error, request, reply) => {
      const httpError = toHttpError(error, request);
      if (httpError.code === 'insufficient_storage') {
        request.log.error({ err: error }, 'the database cannot write (disk full or I/O error): answered 507');
      } else if (httpError.statusCode >= 500 && !(error instanceof HttpError)) {
        request.log.error({ err: error }, 'request failed');
      }
      return sendError(reply, httpError);
    });

    app.setNotFoundHandler((request, reply) => {
      const answered = fallback?.(request, reply);
      if (answered !== undefined) return answered;
      const path = request.url.split('?')[0] ?? '/';
      const allowed = allowedMethods(path);
      if (allowed.length > 0) {
        return sendError(
          reply,
          new HttpError('method_not_allowed', `${request.method} is not allowed on this path`, { allowed }, {
            allow: allowed.join(', '),
          }),
        );
      }
      return sendError(reply, new HttpError('not_found', 'no such endpoint'));
    });
  },
  { name: 'error-handler' },
);
