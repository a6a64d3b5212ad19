/**
 * The first thing every dashboard API request meets (/dashboard/api:
 * CONTRACT C7.3, C7.4, C7.6), as the key gate is for /api/v1:
 * - an API key is refused outright: keys never reach the dashboard;
 * - a request that changes something must come from the dashboard's own
 *   origin (Origin, else Sec-Fetch-Site) and, once signed in, carry the
 *   session's CSRF token in X-CSRF-Token;
 * - the session cookie names the person, the workspace and (through the
 *   membership, checked now) the role; the route's `dashboardAccess` says
 *   which role it needs (403 otherwise) or that it is public (sign-in);
 * - the request then gets that workspace's services, exactly as a key
 *   gives them to /api/v1 requests, and X-Workspace-Id says which.
 */
import { timingSafeEqual } from 'node:crypto';
import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services/index.js';
import type { ActiveSession } from '../../services/operator/sessions.service.js';
import { allows, type Role } from '../../services/operator/roles.js';
import { HttpError } from '../errors.js';
import { presentedKey } from '../plugins/gate.js';
import { pathOf } from '../url-path.js';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './session-cookie.js';

export const DASHBOARD_API_PREFIX = '/dashboard/api';
const UNDER_DASHBOARD_API = `${DASHBOARD_API_PREFIX}/`;

declare module 'fastify' {
  interface FastifyRequest {
    /** the dashboard session, once the session gate admitted the request; null elsewhere */
    session: ActiveSession | null;
  }
  interface FastifyContextConfig {
    /** dashboard routes: the least role needed (default viewer), or public (no session) */
    dashboardAccess?: Role | 'public';
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const signInRequired = () => new HttpError('unauthorized', 'Sign in to continue');

export function isDashboardApiRequest(request: FastifyRequest): boolean {
  const path = pathOf(request.url);
  return path === DASHBOARD_API_PREFIX || path.startsWith(UNDER_DASHBOARD_API);
}

/** The origin this server is reached at, as the browser sees it. */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (typeof origin === 'string') return origin === ownOrigin(request);
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function tokensEqual(presented: string | string[] | undefined, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function forbidden(message: string, details?: Record<string, unknown>): HttpError {
  return new HttpError('forbidden', message, details);
}

export interface SessionGateOptions {
  services: Pick<Services, 'sessions' | 'forWorkspace'>;
}

export const sessionGate = fp<SessionGateOptions>(
  async (app, { services }) => {
    // parsed only for the dashboard's own requests (not on every API request)
    await app.register(cookie, { hook: false });
    app.decorateRequest('session', null);

    async function admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      reply.header('cache-control', 'no-store');
      if (presentedKey(request) !== undefined) {
        throw new HttpError('unauthorized', 'API keys are not accepted by the dashboard; sign in with your email and password');
      }
      const changes = !SAFE_METHODS.has(request.method);
      if (changes && !sameOrigin(request)) throw forbidden('cross-origin request refused');
      const access = request.routeOptions.config?.dashboardAccess ?? 'viewer';
      const header = request.headers.cookie;
      const token = header === undefined ? undefined : app.parseCookie(header)[SESSION_COOKIE];
      const session = token === undefined ? undefined : await services.sessions.authenticate(token);
      if (session === undefined) {
        if (token !== undefined) clearSessionCookie(request, reply);
        if (access === 'public') return;
        throw signInRequired();
      }
      if (changes && !tokensEqual(request.headers['x-csrf-token'], session.csrfToken)) {
        throw forbidden('missing or wrong X-CSRF-Token; reload the dashboard');
      }
      request.session = session;
      request.workspace = services.forWorkspace(session.workspaceId);
      reply.header('x-workspace-id', session.workspaceId);
      if (session.renewed && token !== undefined) setSessionCookie(request, reply, token, session.expiresAt);
      if (access !== 'public' && !allows(session.role, access)) {
        throw forbidden(`your role (${session.role}) does not allow this; it needs ${access}`, { role: session.role, required: access });
      }
    }

    app.addHook('onRequest', (request, reply, done) => {
      if (!isDashboardApiRequest(request)) return done();
      admit(request, reply).then(() => done(), done);
    });
  },
  { name: 'session-gate' },
);

/** The session of a request the session gate admitted. */
export function sessionOf(request: FastifyRequest): ActiveSession {
  if (request.session === null) throw signInRequired();
  return request.session;
}
