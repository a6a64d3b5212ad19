/**
 * Admission control (issues 9 and 19): overload is shed with 503
 * `service_unavailable` and `Retry-After`, in the contract's shape, instead
 * of being queued until every answer is late.
 *
 * - Before anything else (the gate's key lookup included), a saturated event
 *   loop (delay or utilisation above MAX_EVENT_LOOP_DELAY_MS /
 *   MAX_EVENT_LOOP_UTILIZATION, sampled by @fastify/under-pressure) refuses
 *   new requests.
 * - A request that may already have waited QUEUE_TIMEOUT_MS before it was
 *   read (the event loop was held meanwhile: loop-watch.ts) is refused at
 *   once; what it may have waited counts against its time in the queue. So
 *   a request starts its work within QUEUE_TIMEOUT_MS of arriving, or is
 *   refused (README, "Operations"). Its connection stays open, as for every
 *   overload refusal: a client told to reconnect would go through the
 *   accept queue, which Node drains one connection per turn, and a
 *   connection opened as the server stops would be reset.
 * - Then, before the gate's key lookup, a request waits for one of
 *   MAX_IN_FLIGHT_REQUESTS slots, fairly between credentials (the API key
 *   presented, else the client address; fair-gate.ts): a flood of one key
 *   is bounded and cannot starve another key's writes, and the database
 *   work a flood can cause (key lookups included) is bounded too.
 * - A request whose body is still arriving BODY_GRACE_MS after it was
 *   admitted gives its slot back while the body is read, and waits for one
 *   again once it has it (issue 19): a client trickling a body, with or
 *   without credentials, holds a connection, not a slot.
 *
 * Refusals are logged by a rate-limited line (overload-log.ts). The probes
 * (/healthz, /readyz) and /metrics are never refused or queued, so an
 * orchestrator sees a live process under any load.
 */
import type { Socket } from 'node:net';
import type http from 'node:http';
import underPressure from '@fastify/under-pressure';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdmissionConfig } from '../../config.js';
import { HttpError } from '../errors.js';
import { FairGate, FairGateRefusal, type Release } from '../fair-gate.js';
import { LoopWatch } from '../loop-watch.js';
import type { OverloadLog } from '../overload-log.js';
import { pathOf } from '../url-path.js';
import { presentedKey } from './gate.js';

const EXEMPT = new Set(['/healthz', '/readyz', '/metrics']);
/** how often the event loop is sampled */
const SAMPLE_INTERVAL_MS = 500;
/** the first samples measure the start (loading modules, migrating), not load: nothing is shed until this has passed */
const WARM_UP_MS = 2000;
/**
 * Slots granted per turn of the event loop (fair-gate.ts): a turn then does
 * at most this many requests' work before the loop reads sockets and
 * accepts a connection again (one while connections are being accepted).
 * Chosen from `npm run bench:overload -- --tool wrk` at 512 connections
 * (BENCHMARKS.md, "Overload tails").
 */
export const GRANTS_PER_TURN = 4;

/**
 * A body still arriving this long after its request was admitted gives its
 * slot back until it has arrived: a body sent at once keeps its slot (one
 * pass through the queue), a trickled one holds it no longer than this.
 */
export const BODY_GRACE_MS = 100;

export type OverloadReason = 'event_loop_delay' | 'event_loop_utilization' | 'queue_full' | 'queue_timeout' | 'late';

const MESSAGES: Record<OverloadReason, string> = {
  event_loop_delay: 'event loop delayed',
  event_loop_utilization: 'event loop fully used',
  queue_full: 'too many requests waiting',
  queue_timeout: 'waited too long',
  late: 'the request waited too long before it could be read',
};

export function overloaded(reason: string, retryAfterS = 1): HttpError {
  return new HttpError('service_unavailable', `The server is overloaded (${reason}); try again shortly`, undefined, {
    'retry-after': String(retryAfterS),
  });
}

function exempt(request: FastifyRequest): boolean {
  return EXEMPT.has(pathOf(request.url));
}

export interface AdmissionOptions {
  config?: AdmissionConfig;
  /** which requests take a slot (those that reach the database) */
  needsSlot: (request: FastifyRequest) => boolean;
  /** where refusals are counted and logged */
  overloadLog: OverloadLog;
}

declare module 'fastify' {
  interface FastifyInstance {
    fairGate: FairGate;
    loopWatch: LoopWatch;
  }
  interface FastifyRequest {
    /**
     * Gives the request's slot back before its response ends: for a
     * response that stays open once its work is done (a Live stream), which
     * would otherwise hold a slot for as long as its page is open.
     */
    releaseSlot(): void;
  }
}

/**
 * Registered first: sheds load before the gate spends a key lookup on it.
 * Only with a configuration (the server's); an app built without one (tests,
 * embedding) never sheds.
 */
export const loadShedding = fp<{ config?: AdmissionConfig; overloadLog: OverloadLog }>(
  async (app, { config, overloadLog }) => {
    if (config === undefined || (config.maxEventLoopDelayMs === 0 && config.maxEventLoopUtilization === 0)) return;
    const warm = performance.now() + WARM_UP_MS;
    await app.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      maxEventLoopUtilization: config.maxEventLoopUtilization,
      sampleInterval: SAMPLE_INTERVAL_MS,
      pressureHandler: (request: FastifyRequest, _reply: FastifyReply, type: string) => {
        if (exempt(request) || performance.now() < warm) return undefined;
        const reason: OverloadReason = type === 'eventLoopUtilization' ? 'event_loop_utilization' : 'event_loop_delay';
        overloadLog.refused(reason);
        // answered by the error handler, in the contract's shape
        return Promise.reject(overloaded(MESSAGES[reason]));
      },
    });
  },
  { name: 'load-shedding' },
);

function bodyStillArriving(raw: http.IncomingMessage): boolean {
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Registered before the gates: a slot per request, fair between credentials.
 * Only with a configuration (the server's, from the environment); an app
 * built without one (tests, embedding) bounds nothing.
 */
export const inFlightBound = fp<AdmissionOptions>(
  async (app, { config, needsSlot, overloadLog }) => {
    /** the slot a request holds, and whether it gave it back while its body was read */
    const slots = new WeakMap<FastifyRequest, { release?: Release; rejoin: boolean }>();
    app.decorateRequest('releaseSlot', function (this: FastifyRequest) {
      slots.get(this)?.release?.();
    });
    if (config === undefined) return;
    const gate = new FairGate({ ...config, grantsPerTurn: GRANTS_PER_TURN });
    const watch = new LoopWatch();
    app.decorate('fairGate', gate);
    app.decorate('loopWatch', watch);
    // once the routes are compiled: the start holds the loop, and no request waited through it
    app.addHook('onReady', async () => watch.start());
    app.addHook('onClose', async () => watch.stop());

    /** what a connection accepted after a held loop may have waited, until its first request is read */
    const heldAtAccept = new WeakMap<Socket, number>();
    app.server.on('connection', (socket: Socket) => {
      gate.connectionAccepted();
      const held = watch.heldFor();
      if (held > 0) heldAtAccept.set(socket, held);
    });
    const refuse = (reason: OverloadReason): HttpError => {
      overloadLog.refused(reason);
      return overloaded(MESSAGES[reason]);
    };

    function waitForSlot(request: FastifyRequest, reply: FastifyReply, timeoutMs: number, done: (error?: Error) => void): void {
      // the credential itself is the tenant: no hash, no lookup (it is never logged)
      const key = presentedKey(request);
      const tenant = key === undefined ? `address:${request.ip}` : `key:${key}`;
      const hold = (release: Release) => {
        slots.set(request, { release, rejoin: false });
        reply.raw.once('close', release);
        reply.raw.once('finish', release);
      };
      const slot = gate.acquire(tenant, timeoutMs);
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
        (error: unknown) => done(refuse(error instanceof FairGateRefusal ? error.reason : 'queue_timeout')),
      );
    }

    app.addHook('onRequest', (request, reply, done) => {
      const socket = request.raw.socket as Socket | undefined;
      const heldBeforeAccept = socket === undefined ? undefined : heldAtAccept.get(socket);
      if (heldBeforeAccept !== undefined) heldAtAccept.delete(socket as Socket);
      if (exempt(request) || !needsSlot(request)) return done();
      const waited = Math.max(watch.heldFor(), heldBeforeAccept ?? 0);
      if (waited >= config.queueTimeoutMs) return done(refuse('late'));
      waitForSlot(request, reply, config.queueTimeoutMs - waited, done);
    });

    app.addHook('preParsing', (request, _reply, payload, done) => {
      const slot = slots.get(request);
      if (slot?.release !== undefined && bodyStillArriving(request.raw)) {
        const giveBack = setTimeout(() => {
          slot.release?.();
          slots.set(request, { rejoin: true });
        }, BODY_GRACE_MS);
        const keep = () => clearTimeout(giveBack);
        request.raw.once('end', keep);
        request.raw.once('close', keep);
      }
      done(null, payload);
    });

    app.addHook('preHandler', (request, reply, done) => {
      if (slots.get(request)?.rejoin !== true) return done();
      waitForSlot(request, reply, config.queueTimeoutMs, done);
    });
  },
  { name: 'in-flight-bound' },
);
