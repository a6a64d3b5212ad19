/**
 * Admission control (issue 9): overload is shed with 503
 * `service_unavailable` and `Retry-After`, in the contract's shape, instead
 * of being queued until every answer is late.
 *
 * - Before anything else (the gate's key lookup included), a saturated event
 *   loop (delay or utilisation above MAX_EVENT_LOOP_DELAY_MS /
 *   MAX_EVENT_LOOP_UTILIZATION, sampled by @fastify/under-pressure) refuses
 *   new requests.
 * - Then, before the gate's key lookup, a request waits for one of
 *   MAX_IN_FLIGHT_REQUESTS slots, fairly between credentials (the API key
 *   presented, else the client address; fair-gate.ts): a flood of one key
 *   is bounded and cannot starve another key's writes, and the database
 *   work a flood can cause (key lookups included) is bounded too.
 *
 * The probes (/healthz, /readyz) and /metrics are never refused or queued,
 * so an orchestrator sees a live process under any load.
 */
import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdmissionConfig } from '../../config.js';
import { HttpError } from '../errors.js';
import { FairGate, FairGateRefusal } from '../fair-gate.js';
import { presentedKey } from './gate.js';

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
/** how often the event loop is sampled */
const SAMPLE_INTERVAL_MS = 500;
/** the first samples measure the start (loading modules, migrating), not load: nothing is shed until this has passed */
const WARM_UP_MS = 2000;

export function overloaded(reason: string, retryAfterS = 1): HttpError {
  return new HttpError('service_unavailable', `The server is overloaded (${reason}); try again shortly`, undefined, {
    'retry-after': String(retryAfterS),
  });
}

function exempt(request: FastifyRequest): boolean {
  return EXEMPT.has(request.url.split('?')[0] ?? '');
}

export interface AdmissionOptions {
  config?: AdmissionConfig;
  /** which requests take a slot (those that reach the database) */
  needsSlot: (request: FastifyRequest) => boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    fairGate: FairGate;
  }
}

/**
 * Registered first: sheds load before the gate spends a key lookup on it.
 * Only with a configuration (the server's); an app built without one (tests,
 * embedding) never sheds.
 */
export const loadShedding = fp<{ config?: AdmissionConfig }>(
  async (app, { config }) => {
    if (config === undefined || (config.maxEventLoopDelayMs === 0 && config.maxEventLoopUtilization === 0)) return;
    const warm = performance.now() + WARM_UP_MS;
    await app.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      maxEventLoopUtilization: config.maxEventLoopUtilization,
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: (request: FastifyRequest, _reply: FastifyReply, type: string) => {
        if (exempt(request) || performance.now() < warm) return undefined;
        request.log.warn({ type }, 'overloaded: request refused with 503');
        // answered by the error handler, in the contract's shape
        return Promise.reject(overloaded(type === 'eventLoopUtilization' ? 'event loop fully used' : 'event loop delayed'));
      },
    });
  },
  { name: 'load-shedding' },
);

/**
 * Registered before the gates: a slot per request, fair between credentials.
 * Only with a configuration (the server's, from the environment); an app
 * built without one (tests, embedding) bounds nothing.
 */
export const inFlightBound = fp<AdmissionOptions>(
  async (app, { config, needsSlot }) => {
    if (config === undefined) return;
    const gate = new FairGate(config);
    app.decorate('fairGate', gate);
    app.addHook('onRequest', (request, reply, done) => {
      if (exempt(request) || !needsSlot(request)) return done();
      // the credential itself is the tenant: no hash, no lookup (it is never logged)
      const key = presentedKey(request);
      const tenant = key === undefined ? `address:${request.ip}` : `key:${key}`;
      const slot = gate.acquire(tenant);
      const hold = (release: () => void) => {
        reply.raw.once('close', release);
        reply.raw.once('finish', release);
      };
      if (typeof slot === 'function') {
        hold(slot);
        return done();
      }
      slot.then(
        (release) => {
          // the client went away while it waited
          if (request.raw.destroyed) return release();
          hold(release);
          done();
        },
        (error: unknown) => {
          const reason = error instanceof FairGateRefusal ? error.reason : 'queue';
          request.log.warn({ reason }, 'overloaded: request refused with 503');
          done(overloaded(reason === 'queue_full' ? 'too many requests waiting' : 'waited too long'));
        },
      );
    });
  },
  { name: 'in-flight-bound' },
);
