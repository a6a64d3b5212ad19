/**
 * GET /metrics: Prometheus metrics (observability/app-metrics.ts), outside
 * /api/v1, so neither API keys nor the API's rate limits apply, and hidden
 * from the OpenAPI document. With METRICS_TOKEN set a scrape must send
 * `Authorization: Bearer <token>`, compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { AppMetrics } from '../../observability/app-metrics.js';
import { HttpError } from '../errors.js';

export interface MetricsRouteOptions {
  metrics: AppMetrics;
  /** when set, the Bearer token a scrape must present */
  token: string | undefined;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Equal digests of equal length: the time taken says nothing about the token. */
function tokenMatches(authorization: string | undefined, token: string): boolean {
  const presented = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  return timingSafeEqual(digest(presented ?? ''), digest(token)) && presented !== undefined;
}

export const metricsRoutes: FastifyPluginAsync<MetricsRouteOptions> = async (app, { metrics, token }) => {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (token !== undefined && !tokenMatches(request.headers.authorization, token)) {
      throw new HttpError('unauthorized', 'Invalid or missing metrics token', undefined, { 'www-authenticate': 'Bearer' });
    }
    let text: string;
    try {
      text = await metrics.scrape();
    } catch (error) {
      request.log.warn({ err: error }, 'metrics scrape failed');
      throw new HttpError('service_unavailable', 'Metrics could not be collected; try again shortly');
    }
    return reply.type(metrics.contentType).send(text);
  });
};
