/**
 * How a request is named in metrics and logs: by the pattern of the route it
 * matched (/api/v1/leads/:id), never by its URL, which carries ids and query
 * strings; requests that matched no route share one name.
 */
import type { FastifyRequest } from 'fastify';
import { UNMATCHED_ROUTE } from '../observability/app-metrics.js';

export function routeLabel(request: FastifyRequest): string {
  const url = request.is404 ? undefined : request.routeOptions.url;
  return url === undefined || url === '*' || url === '/*' ? UNMATCHED_ROUTE : url;
}
