/**
 * Times every answered request, whatever answered it (a route, the gate, the
 * error or not-found handler), into the application's metrics.
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppMetrics } from '../../observability/app-metrics.js';
import { routeLabel } from '../route-label.js';

/** Records one answered request; also called for requests the router could not read (app.ts). */
export function observeRequest(metrics: AppMetrics, request: FastifyRequest, reply: FastifyReply, ms: number): void {
  metrics.observeRequest(routeLabel(request), request.method, reply.statusCode, ms / 1000);
}

export const requestMetrics = fp<{ metrics: AppMetrics }>(
  async (app, { metrics }) => {
    app.addHook('onResponse', (request, reply, done) => {
      observeRequest(metrics, request, reply, reply.elapsedTime);
      done();
    });
  },
  { name: 'request-metrics' },
);
