/**
 * One GET of company enrichment (CONTRACT C6.7): no redirect followed (the
 * caller decides which it follows), no cookies kept or sent, the body read
 * up to a limit and no further (the socket is closed past it), the address
 * checked after name resolution with the webhooks' rules (targets.ts), and
 * aborted by the caller's signal. `HttpGet` is what enrichment calls, so
 * the demo can answer from its own simulated web in process.
 */
import http from 'node:http';
import https from 'node:https';
import { guardedLookup, literalRefusal, TargetRefused, type Resolve } from '../webhooks/targets.js';

export interface GetRequest {
  url: string;
  headers: Record<string, string>;
  /** at most this many bytes of the body are read */
  maxBytes: number;
  signal: AbortSignal;
  /** loopback and private addresses are allowed */
  allowPrivate: boolean;
}

export interface GetResponse {
  status: number;
  /** the Location header of a redirect */
  location: string | null;
  contentType: string | null;
  /** the body, at most maxBytes of it (empty for a redirect) */
  body: Buffer;
  /** the body went on past maxBytes */
  truncated: boolean;
}

export type HttpGet = (request: GetRequest) => Promise<GetResponse>;

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** GETs over the network; `resolve` answers names (the system's resolver unless given). */
export function networkGet(resolve?: Resolve): HttpGet {
  return (request) =>
    new Promise<GetResponse>((resolvePromise, reject) => {
      const refused = literalRefusal(request.url, request.allowPrivate);
      if (refused !== undefined) {
        reject(new TargetRefused(refused));
        return;
      }
      const target = new URL(request.url);
      const client = target.protocol === 'https:' ? https : http;
      const outgoing = client.request(
        target,
        {
          method: 'GET',
          headers: { 'accept-encoding': 'identity', ...request.headers },
          lookup: guardedLookup(request.allowPrivate, resolve) as never,
          agent: false,
          signal: request.signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          const answer = (body: Buffer, truncated: boolean): GetResponse => ({
            status,
            location: header(response.headers.location),
            contentType: header(response.headers['content-type']),
            body,
            truncated,
          });
          if (status >= 300 && status < 400) {
            response.destroy();
            resolvePromise(answer(Buffer.alloc(0), false));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          let done = false;
          response.on('data', (chunk: Buffer) => {
            if (done) return;
            const room = request.maxBytes - size;
            if (chunk.length > room) {
              // past the limit: what fits is kept, the rest is never read
              chunks.push(chunk.subarray(0, room));
              size += room;
              done = true;
              response.destroy();
              resolvePromise(answer(Buffer.concat(chunks, size), true));
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          response.on('end', () => {
            if (done) return;
            done = true;
            resolvePromise(answer(Buffer.concat(chunks, size), false));
          });
          response.on('error', (error) => {
            if (!done) reject(error);
            done = true;
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
}
