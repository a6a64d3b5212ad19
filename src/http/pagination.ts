/**
 * Cursor pagination of every list under /api/v1 (CONTRACT C8.3), next to the
 * offsets of C3.9. A list route asks `cursorPage` for its page: the limit
 * (one more item is read, to know whether more follow), the offset, or the
 * keyset position a `cursor` names. `finish` cuts the page to its limit,
 * answers `pagination` as C3.9 says (offset 0 on a page reached by cursor,
 * the exact total always) and, while more items follow, a
 * `Link: <…>; rel="next"` whose cursor continues after the page's last
 * item. A cursor with an offset, or one that does not verify for this
 * workspace, endpoint and filters, is 400.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Keyset, Page, PageResult } from '../repositories/page.js';
import type { CursorBinding, CursorsService } from '../services/operator/cursors.service.js';
import type { Pagination } from '../schemas/resources.js';
import { HttpError } from './errors.js';
import { workspaceOf } from './request-context.js';
import { pageOf } from './schemas/common.js';

declare module 'fastify' {
  interface FastifyInstance {
    cursors: CursorsService;
  }
}

export interface PagingQuery {
  limit?: number;
  offset?: number;
  cursor?: string;
}

export interface CursorPaging {
  /** what to ask the repository for: one item more than the page shows */
  page: Page;
  finish<T>(result: PageResult<T>, reply: FastifyReply, keyOf?: (item: T) => Keyset): Promise<{ data: T[]; pagination: Pagination }>;
}

const createdKey = (item: unknown): Keyset => {
  const { created_at, id } = item as { created_at: string; id: string };
  return { at: created_at, id };
};

/** Filters as canonical text: absent ones left out, names sorted. */
function filterText(filters: Readonly<Record<string, unknown>>): string {
  const present = Object.entries(filters)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(present);
}

function invalidCursor(message: string): HttpError {
  return new HttpError('invalid_request', message, { parameters: { cursor: message } });
}

export async function cursorPage(request: FastifyRequest, filters: Readonly<Record<string, unknown>>): Promise<CursorPaging> {
  const query = request.query as PagingQuery;
  const { limit, offset } = pageOf(query);
  const binding: CursorBinding = {
    workspaceId: workspaceOf(request).id,
    endpoint: `${request.routeOptions.url ?? ''} ${JSON.stringify(request.params ?? {})}`,
    filters: filterText(filters),
  };
  const cursors = request.server.cursors;
  let after: Keyset | undefined;
  if (query.cursor !== undefined) {
    if (query.offset !== undefined) throw invalidCursor('cursor and offset cannot be used together');
    after = await cursors.decode(query.cursor, binding);
    if (after === undefined) throw invalidCursor('cursor is invalid, or was made for another workspace, endpoint or filters');
  }
  return {
    page: { limit: limit + 1, offset: after === undefined ? offset : 0, ...(after === undefined ? {} : { after }) },
    async finish(result, reply, keyOf = createdKey) {
      const items = result.items.slice(0, limit);
      const last = items[items.length - 1];
      if (result.items.length > limit && last !== undefined) {
        const cursor = await cursors.encode(keyOf(last), binding);
        reply.header('link', `<${nextUrl(request, cursor)}>; rel="next"`);
      }
      return { data: items, pagination: { limit, offset: after === undefined ? offset : 0, total: result.total } };
    },
  };
}

/** The request's own URL with the cursor set and no offset. */
function nextUrl(request: FastifyRequest, cursor: string): string {
  const [path, search] = request.url.split('?', 2) as [string, string | undefined];
  const params = new URLSearchParams(search ?? '');
  params.delete('offset');
  params.delete('cursor');
  params.set('cursor', cursor);
  return `${request.protocol}://${request.host}${path}?${params.toString()}`;
}
