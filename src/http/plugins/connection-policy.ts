/**
 * How the HTTP server treats connections (issue 9): the timeouts and the cap
 * on connections of a server exposed without a proxy, the errors Node answers
 * before Fastify sees a request (408, 431, malformed HTTP) in the contract's
 * shape, `Connection: close` whenever an error is answered before the body
 * was read (the rest of a large body is not waited for) and once the server
 * drains for shutdown, and the headers every answer carries
 * (`X-Content-Type-Options: nosniff`, `Cache-Control: no-store` unless the
 * route chose its own caching).
 *
 * Routes open to anyone, before any sign-in (the dashboard's sign-in,
 * invitations and resets), read at most PUBLIC_BODY_LIMIT (issue 19): their
 * bodies are an email and a password, and a larger Content-Length is refused
 * at once, unread, instead of being read slowly from a stranger.
 */
import http from 'node:http';
import type net from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../config.js';
import { HttpError } from '../errors.js';

/** what a route open to anyone reads at most */
export const PUBLIC_BODY_LIMIT = 16 * 1024;

/** Node checks request and headers timeouts this often at most (its default is 30 s) */
const MAX_CHECK_INTERVAL_MS = 1000;

/** Fastify's options for `limits`. */
export function serverOptions(limits: HttpLimits = DEFAULT_HTTP_LIMITS): Partial<FastifyServerOptions> & { http: http.ServerOptions } {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    // drained below instead: Fastify's own 503 while closing is not in the contract's shape
    return503OnClosing: false,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(MAX_CHECK_INTERVAL_MS, Math.max(50, Math.floor(limits.headersTimeoutMs / 4))),
    },
  };
}

const CLIENT_ERRORS: Record<string, () => HttpError> = {
  ERR_HTTP_REQUEST_TIMEOUT: () =>
    new HttpError('request_timeout', 'the request was not received in time; send the headers and body without pauses'),
  HPE_HEADER_OVERFLOW: () =>
    new HttpError('request_header_fields_too_large', 'the request headers are larger than the server accepts (16 KiB)'),
};

/** The raw answer to an error Node found before Fastify saw the request. */
export function clientErrorResponse(code: string | undefined): string {
  const error = CLIENT_ERRORS[code ?? '']?.() ?? new HttpError('invalid_request', 'the request is not valid HTTP/1.1');
  const body = JSON.stringify(error.body());
  return [
    `HTTP/1.1 ${error.statusCode} ${http.STATUS_CODES[error.statusCode] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's clientErrorHandler: the contract's shape, and one log line without the request's content. */
export function clientErrorHandler(logger: FastifyBaseLogger | undefined) {
  return (error: Error & { code?: string }, socket: net.Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    logger?.info({ code: error.code, remoteAddress: socket.remoteAddress }, 'client error: the request was answered and the connection closed');
    // a response already under way cannot be replaced; only the connection is closed
    const busy = (socket as net.Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (socket.writable && !busy) socket.end(clientErrorResponse(error.code));
    else socket.destroy();
  };
}

export interface Draining {
  /** from now on every answer carries `Connection: close` */
  start(): void;
  readonly active: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    draining: Draining;
  }
}

function bodyUnread(raw: http.IncomingMessage): boolean {
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export const connectionPolicy = fp<{ limits?: HttpLimits }>(
  async (app: FastifyInstance, { limits = DEFAULT_HTTP_LIMITS }) => {
    let draining = false;
    app.decorate('draining', {
      start() {
        draining = true;
      },
      get active() {
        return draining;
      },
    });
    app.server.maxConnections = limits.maxConnections;
    app.addHook('onRoute', (route) => {
      if (route.config?.dashboardAccess === 'public' && route.bodyLimit === undefined) route.bodyLimit = PUBLIC_BODY_LIMIT;
    });
    app.addHook('onRequest', (request, _reply, done) => {
      // the length first: most requests (every GET) have none, and need no look at their route
      const length = Number(request.headers['content-length'] ?? 0);
      if (!(length > PUBLIC_BODY_LIMIT) || request.routeOptions.config?.dashboardAccess !== 'public') return done();
      done(new HttpError('payload_too_large', 'request body is larger than 16 KiB', { max_bytes: PUBLIC_BODY_LIMIT }));
    });
    app.server.headersTimeout = limits.headersTimeoutMs;
    app.addHook('onSend', (request, reply, _payload, done) => {
      reply.header('x-content-type-options', 'nosniff');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      if (draining || (reply.statusCode >= 400 && bodyUnread(request.raw))) reply.header('connection', 'close');
      done();
    });
  },
  { name: 'connection-policy' },
);
