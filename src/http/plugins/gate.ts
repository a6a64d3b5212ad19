/**
 * The first thing every /api/v1 request meets (CONTRACT C3.1 to C3.4): the API
 * key, from `Authorization: Bearer` or `x-api-key`, looked up by hash; the
 * per-key rate limit sized by key type, or the per-address limit for requests
 * without a valid key; the rate-limit headers; and the record of key use.
 * Nothing else runs before this, so an unauthenticated caller learns nothing
 * about routes, bodies or resources.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimitConfig } from '../../config.js';
import { decide, windowIndex, type Clock, type RateLimitDecision, type RateLimiter } from '../../rate-limit/rate-limiter.js';
import type { Services } from '../../services/index.js';
import { hashKey, type ActiveKey, type KeyType } from '../../services/operator/api-keys.service.js';
import { HttpError, unauthorized } from '../errors.js';
import { pathOf } from '../url-path.js';

export const API_PREFIX = '/api/v1';

export interface GateOptions {
  services: Pick<Services, 'apiKeys' | 'forWorkspace'>;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  /** told of every 429, with the limit that refused it (metrics) */
  onRateLimited?: (refusedBy: KeyType | 'address') => void;
  /** told of every key looked up in the database (metrics) */
  onKeyLookup?: () => void;
}

/** at most this many refused keys are remembered in a window */
const MAX_REFUSED_KEYS = 10_000;

interface RefusedKey {
  type: KeyType;
  workspaceId: string;
  limit: number;
}

/**
 * Keys refused by their rate limit, by the hash of the key, for the rest of
 * the window (issue 9): a flood of a limited key is answered 429 without a
 * database lookup each time. A window's count never goes down, so the
 * answer is the one the limiter would give; a key revoked meanwhile still
 * gets 429 (never a 200) until the window ends.
 */
class RefusedKeys {
  #window = -1;
  #keys = new Map<string, RefusedKey>();

  constructor(private readonly clock: Clock) {}

  get(secret: string): RefusedKey | undefined {
    if (this.#keys.size === 0 || !this.#current()) return undefined;
    return this.#keys.get(hashKey(secret));
  }

  remember(secret: string, refused: RefusedKey): void {
    this.#current();
    if (this.#keys.size < MAX_REFUSED_KEYS) this.#keys.set(hashKey(secret), refused);
  }

  /** false (and forgets everything) when a new window has started */
  #current(): boolean {
    const window = windowIndex(this.clock());
    if (window === this.#window) return true;
    this.#window = window;
    this.#keys = new Map();
    return false;
  }
}

const BEARER = /^bearer[ \t]+([^\s]+)[ \t]*$/i;

export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    if (match !== null) return match[1];
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' ? header.trim() : undefined;
}

function underPrefix(path: string): boolean {
  return path.startsWith(API_PREFIX) && (path.length === API_PREFIX.length || path[API_PREFIX.length] === '/');
}

/**
 * Whether the request is for the API, decided as the router decides: by the
 * matched route, or for unmatched requests by the percent-decoded path (so
 * that /%61pi/v1/... meets the gate like /api/v1/...).
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions?.url;
  if (route !== undefined && route !== '*' && route !== '/*') return underPrefix(route);
  const path = pathOf(request.url);
  try {
    return underPrefix(decodeURIComponent(path));
  } catch {
    return underPrefix(path);
  }
}

/** The rate-limit headers of C3.3, for the limit `decision` came from (named `policy`). */
export function setRateHeaders(reply: FastifyReply, decision: RateLimitDecision, policy: string): void {
  const { limit, remaining, resetAt, retryAfter } = decision;
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', resetAt);
  reply.header('ratelimit-policy', `"${policy}";q=${limit};w=60`);
  reply.header('ratelimit', `"${policy}";r=${remaining};t=${retryAfter}`);
}

/** The 429 of C3.3 for a refused `decision`. */
export function rateLimited(decision: RateLimitDecision): HttpError {
  return new HttpError(
    'rate_limit_exceeded',
    `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${decision.retryAfter} s`,
    { retry_after: decision.retryAfter, limit: decision.limit, reset: decision.resetAt },
    { 'retry-after': String(decision.retryAfter) },
  );
}

export type Admission = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Admits a request or throws the error it must be answered with. Also used for
 * requests the router cannot parse, so that they meet the same checks first.
 */
export function createAdmission({ services, limiter, limits, onRateLimited, onKeyLookup }: GateOptions): Admission {
  // the limiter's clock places requests in windows; the memory of refused keys follows it
  const clock = () => limiter.now();
  const { apiKeys } = services;
  const limitOf = (key: ActiveKey) => (key.type === 'production' ? limits.production : limits.development);
  const refusedKeys = new RefusedKeys(clock);

  // a limiter in memory decides at once: no promise to wait for on every request
  const consume = (bucket: string, limit: number): RateLimitDecision | Promise<RateLimitDecision> =>
    limiter.consumeNow?.(bucket, limit) ?? limiter.consume(bucket, limit);

  async function limitAddress(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const decision = await consume(`address:${request.ip}`, limits.unauthenticated);
    setRateHeaders(reply, decision, 'address');
    if (!decision.allowed) {
      onRateLimited?.('address');
      throw rateLimited(decision);
    }
  }

  return async (request, reply) => {
    if (!isApiRequest(request)) return;
    if (request.routeOptions?.config?.public === true) {
      await limitAddress(request, reply);
      return;
    }
    const secret = presentedKey(request);
    const refused = secret === undefined ? undefined : refusedKeys.get(secret);
    if (refused !== undefined) {
      reply.header('x-workspace-id', refused.workspaceId);
      const decision = decide(refused.limit, refused.limit, false, clock());
      setRateHeaders(reply, decision, refused.type);
      onRateLimited?.(refused.type);
      throw rateLimited(decision);
    }
    const key = secret === undefined ? undefined : await apiKeys.authenticate(secret, onKeyLookup);
    if (key === undefined) {
      await limitAddress(request, reply);
      throw unauthorized();
    }
    reply.header('x-workspace-id', key.workspace_id);
    const counted = consume(`key:${key.id}`, limitOf(key));
    const decision = counted instanceof Promise ? await counted : counted;
    setRateHeaders(reply, decision, key.type);
    if (!decision.allowed) {
      refusedKeys.remember(secret as string, { type: key.type, workspaceId: key.workspace_id, limit: decision.limit });
      onRateLimited?.(key.type);
      throw rateLimited(decision);
    }
    request.apiKey = { id: key.id, type: key.type };
    request.workspace = services.forWorkspace(key.workspace_id);
    // at most once a minute per key: otherwise nothing to wait for
    const recording = apiKeys.recordUse(key);
    if (recording === undefined) return;
    try {
      await recording;
    } catch (error) {
      request.log.warn({ err: error }, 'could not record key use');
    }
  };
}

export const gate = fp<{ admit: Admission }>(
  async (app, { admit }) => {
    app.decorateRequest('workspace', null);
    app.decorateRequest('apiKey', null);
    app.addHook('onRequest', (request, reply, done) => {
      if (!isApiRequest(request)) return done();
      admit(request, reply).then(() => done(), done);
    });
  },
  { name: 'gate' },
);
