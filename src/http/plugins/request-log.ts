/**
 * One log line per answered request, in place of Fastify's two: request id,
 * workspace (when a key or a dashboard session named one), method, URL, route pattern, status and
 * time in milliseconds. Once the gate has admitted a request its logger
 * carries the workspace id, so that whatever is logged later for it (a 500's
 * stack, a warning) can be traced to the workspace. No key is ever logged:
 * headers are not logged at all, and key-shaped text in the URL (a key
 * passed in the query string or the path by mistake) is replaced.
 */
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { routeLabel } from '../route-label.js';

/** API keys and site keys, literally or with their underscores percent-encoded */
const KEY_SHAPED = /ll(?:_|%5f)(?:prod|dev|site)(?:_|%5f)[0-9a-z]+/gi;

export const REDACTED = '[redacted]';

const KEY_PREFIX = /ll_(?:prod|dev|site)_/i;

/** Percent-escapes decoded byte by byte: never throws on malformed ones, and a key's characters are ASCII. */
const decodeLeniently = (text: string) => text.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** Whether a part of a URL holds a key once decoded, however many times it was percent-encoded. */
function hidesKey(part: string): boolean {
  let text = part;
  for (;;) {
    if (KEY_PREFIX.test(text)) return true;
    const decoded = decodeLeniently(text);
    // each round makes the text shorter, so this ends
    if (decoded === text) return false;
    text = decoded;
  }
}

/**
 * Replaces key-shaped text in a URL: literally or percent-encoded in any
 * way, any number of times over (each path segment, query name and value is
 * also checked decoded until nothing is left to decode).
 */
export function redactKeys(url: string): string {
  const literal = url.replace(KEY_SHAPED, REDACTED);
  if (!literal.includes('%')) return literal;
  return literal.replace(/[^/?&=#;]+/g, (part) => (part.includes('%') && hidesKey(part) ? REDACTED : part));
}

/** whether a header value (an X-Request-Id) holds something key-shaped, which is then not logged */
export function looksKeyShaped(text: string): boolean {
  return redactKeys(text) !== text;
}

const bound = new WeakSet<FastifyRequest>();

/** The workspace the key named: admitted, or refused by its rate limit (the gate set the header). */
function workspaceIdOf(request: FastifyRequest, reply: FastifyReply): string | undefined {
  // undefined rather than null on requests the router could not read
  const admitted = request.workspace?.id;
  if (admitted !== undefined) return admitted;
  const header = reply.getHeader('x-workspace-id');
  return typeof header === 'string' ? header : undefined;
}

function bindWorkspace(request: FastifyRequest, reply: FastifyReply): void {
  if (bound.has(request)) return;
  const workspaceId = workspaceIdOf(request, reply);
  if (workspaceId === undefined) return;
  bound.add(request);
  // the request's own child logger (Fastify makes one per request) gains the
  // binding in place: cheaper than a child of the child on every request
  const log = request.log as FastifyBaseLogger & { setBindings?: (bindings: Record<string, unknown>) => void };
  if (typeof log.setBindings === 'function') log.setBindings({ workspace_id: workspaceId });
  else request.log = reply.log = request.log.child({ workspace_id: workspaceId });
}

/** Logs one answered request; also called for requests the router could not read (app.ts). */
export function logRequest(request: FastifyRequest, reply: FastifyReply, ms: number): void {
  // below LOG_LEVEL=info the line is not written: its fields (the URL's redaction above all) are not worth building
  const { isLevelEnabled } = request.log as { isLevelEnabled?: (level: string) => boolean };
  if (isLevelEnabled !== undefined && !isLevelEnabled.call(request.log, 'info')) return;
  bindWorkspace(request, reply);
  request.log.info(
    {
      method: request.method,
      url: redactKeys(request.url),
      route: routeLabel(request),
      statusCode: reply.statusCode,
      responseTime: Math.round(ms * 1000) / 1000,
    },
    'request completed',
  );
}

export const requestLog = fp(
  async (app) => {
    // Registered after the gate, so this runs once it has admitted the request.
    app.addHook('onRequest', (request, reply, done) => {
      bindWorkspace(request, reply);
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      logRequest(request, reply, reply.elapsedTime);
      done();
    });
  },
  { name: 'request-log', dependencies: ['gate', 'session-gate'] },
);
