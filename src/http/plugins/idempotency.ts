/**
 * Idempotency-Key on POSTs under /api/v1 (CONTRACT C8.2), for every such
 * route, present and future: the route's handler is wrapped when it is
 * registered. The key is read after the gate, the guards and validation, so
 * a request refused before it ran (400, 401, 413, 415, 429) never claims it.
 * A claimed request runs with the write hook that marks the key applied in
 * the transaction of its write (services/tenant/idempotency.service.ts); its
 * answer is stored before it is sent, unless it is one that is not kept (a
 * 400 or 429 from the handler, or a 5xx: nothing was written, retrying is
 * what the client should do).
 * A POST that changes nothing (a search) opts out with the route config
 * `readOnly: true`: its Idempotency-Key is not read and its answer is not
 * stored (README "Idempotency-Key and read-only POSTs").
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteHandlerMethod } from 'fastify';
import { withWriteHook } from '../../repositories/write-hooks.js';
import { IDEMPOTENCY_KEY, IdempotencyInUseError, IdempotencyReusedError, requestHash } from '../../services/tenant/idempotency.service.js';
import { invalidHeader } from '../errors.js';
import { API_PREFIX } from './gate.js';
import { workspaceOf } from '../request-context.js';

/** answers that are never stored: refused before running, or failed without writing */
const NOT_STORED = new Set([400, 401, 413, 415, 429]);
/** the headers a replay repeats */
const REPLAYED_HEADERS = ['location', 'content-type'] as const;

interface Claim {
  key: string;
  token: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: Claim | null;
  }
  interface FastifyContextConfig {
    /** a POST that writes nothing (a search): no Idempotency-Key, nothing stored, not documented */
    readOnly?: boolean;
  }
}

/** Whether the Idempotency-Key applies to a route: POSTs under /api/v1 that are not read-only. */
export function takesIdempotencyKey(route: { method: string | string[]; url: string; config?: { readOnly?: boolean } }): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (!methods.includes('POST') || route.config?.readOnly === true) return false;
  return route.url === API_PREFIX || route.url.startsWith(`${API_PREFIX}/`);
}

function keyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
    throw invalidHeader('Idempotency-Key', 'must be 1 to 255 visible ASCII characters, sent once');
  }
  return header;
}

function wrap(handler: RouteHandlerMethod, route: string): RouteHandlerMethod {
  return async function idempotent(this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const key = keyOf(request);
    if (key === undefined) return handler.call(this as never, request, reply);
    const idempotency = workspaceOf(request).idempotency;
    const begun = await idempotency.begin(key, requestHash(`POST ${route} ${JSON.stringify(request.params ?? {})}`, request.body));
    switch (begun.kind) {
      case 'reused':
        throw new IdempotencyReusedError();
      case 'in_use':
        throw new IdempotencyInUseError();
      case 'replay': {
        const { answer } = begun;
        reply.code(answer.status).headers(answer.headers).header('idempotent-replayed', 'true');
        return reply.send(answer.body);
      }
      case 'run': {
        request.idempotencyClaim = { key, token: begun.token };
        return withWriteHook(idempotency.writeHook(key, begun.token), () => handler.call(this as never, request, reply));
      }
    }
  } as RouteHandlerMethod;
}

/**
 * Stores (or releases) the answer of a claimed request before it is sent.
 * Only the routes that take a key get it (a hook of their own, added when
 * they are registered): every other answer (GETs above all) skips an
 * asynchronous step that could only find no claim (issue 24).
 */
async function storeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const claim = request.idempotencyClaim;
  if (claim === null) return payload;
  request.idempotencyClaim = null;
  const idempotency = workspaceOf(request).idempotency;
  const status = reply.statusCode;
  try {
    if (NOT_STORED.has(status) || status >= 500) {
      await idempotency.release(claim.key, claim.token);
    } else {
      const headers: Record<string, string> = {};
      for (const name of REPLAYED_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      await idempotency.complete(claim.key, claim.token, { status, headers, body: typeof payload === 'string' ? payload : '' });
    }
  } catch (error) {
    request.log.warn({ err: error }, 'could not store the answer of an idempotent request');
  }
  return payload;
}

export const idempotency = fp(
  async (app) => {
    app.decorateRequest('idempotencyClaim', null);
    app.addHook('onRoute', (route) => {
      if (!takesIdempotencyKey(route)) return;
      route.handler = wrap(route.handler as RouteHandlerMethod, route.url);
      const hooks = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [storeAnswer as onSendHookHandler, ...hooks];
    });
  },
  { name: 'idempotency' },
);
